using System.Text;

namespace CamCube.Services.KeyValue.FrontEnd;

/// <summary>A command's answer, written by the connection in order once it is in.</summary>
/// <param name="Kind">What it says.</param>
/// <param name="Number">For <see cref="KeyValueReplyKind.Number"/>, the number.</param>
/// <param name="Item">For <see cref="KeyValueReplyKind.Value"/>, the item.</param>
/// <param name="Version">For <see cref="KeyValueReplyKind.Value"/>, the item's version (its cas unique).</param>
/// <param name="ErrorLine">For <see cref="KeyValueReplyKind.Error"/>, the line with its terminator.</param>
internal sealed record KeyValueReply(KeyValueReplyKind Kind, ulong Number = 0, MemcachedItem Item = default, long Version = 0, byte[]? ErrorLine = null)
{
    private static readonly KeyValueReply s_unavailable = Error("SERVER_ERROR unavailable: the key's servers cannot be reached");
    private static readonly KeyValueReply s_timedOut = Error("SERVER_ERROR timeout: the write may or may not have taken effect");
    private static readonly KeyValueReply s_readTimedOut = Error("SERVER_ERROR timeout: the key's servers did not answer the read in time");
    private static readonly KeyValueReply s_shutdown = Error("SERVER_ERROR the node is stopping");
    private static readonly KeyValueReply s_rejected = Error("SERVER_ERROR rejected by the key's primary");

    /// <summary>Gets <c>STORED</c>.</summary>
    public static KeyValueReply Stored { get; } = new(KeyValueReplyKind.Stored);

    /// <summary>Gets <c>NOT_STORED</c>.</summary>
    public static KeyValueReply NotStored { get; } = new(KeyValueReplyKind.NotStored);

    /// <summary>Gets <c>EXISTS</c>.</summary>
    public static KeyValueReply Exists { get; } = new(KeyValueReplyKind.Exists);

    /// <summary>Gets <c>NOT_FOUND</c>.</summary>
    public static KeyValueReply NotFound { get; } = new(KeyValueReplyKind.NotFound);

    /// <summary>Gets <c>DELETED</c>.</summary>
    public static KeyValueReply Deleted { get; } = new(KeyValueReplyKind.Deleted);

    /// <summary>Gets <c>TOUCHED</c>.</summary>
    public static KeyValueReply Touched { get; } = new(KeyValueReplyKind.Touched);

    /// <summary>Gets <c>OK</c>.</summary>
    public static KeyValueReply Ok { get; } = new(KeyValueReplyKind.Ok);

    /// <summary>Gets a get's miss.</summary>
    public static KeyValueReply Miss { get; } = new(KeyValueReplyKind.Miss);

    /// <summary>Gets the answer to incr or decr on a value that is not a decimal number.</summary>
    public static KeyValueReply NonNumeric { get; } = Error("CLIENT_ERROR cannot increment or decrement non-numeric value");

    /// <summary>Gets the answer to a value over the store's size limit.</summary>
    public static KeyValueReply TooLarge { get; } = Error("SERVER_ERROR object too large for cache");

    /// <summary>Gets the answer when an item kept changing under a read-modify-write (<see cref="KeyValueFrontEndOptions.ConditionalRetriesMax"/>).</summary>
    public static KeyValueReply Busy { get; } = Error("SERVER_ERROR busy: the item kept changing, try again");

    /// <summary>An error reply.</summary>
    /// <param name="line">The line without its terminator; ASCII.</param>
    /// <returns>The reply.</returns>
    public static KeyValueReply Error(string line) => new(KeyValueReplyKind.Error, ErrorLine: Encoding.ASCII.GetBytes(line + "\r\n"));

    /// <summary>The reply to a call the store could not complete: <c>SERVER_ERROR</c> and why, on one line.</summary>
    /// <param name="reason">Why.</param>
    /// <param name="read">Whether the call only read (a read that timed out changed nothing, so its answer does not speak of a write).</param>
    /// <returns>The reply.</returns>
    public static KeyValueReply StoreFailed(KeyValueFailure reason, bool read = false) => reason switch
    {
        KeyValueFailure.TimedOut => read ? s_readTimedOut : s_timedOut,
        KeyValueFailure.Shutdown => s_shutdown,
        KeyValueFailure.Rejected => s_rejected,
        _ => s_unavailable,
    };
}
