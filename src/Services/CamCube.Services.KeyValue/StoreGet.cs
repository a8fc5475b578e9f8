using CamCube.Messaging;
using CamCube.Services.KeyValue.Messages;

namespace CamCube.Services.KeyValue;

/// <summary>
/// One get at a time, of a caller that keeps it and reads with it again and again: its request, asked
/// of the key's primary as one typed request with no task (<see cref="KeyValueService"/>'s reads), and
/// the outcome that hears how it ended.
/// </summary>
internal sealed class StoreGet : PendingReply
{
    private readonly byte[] _key = new byte[Key.SizeBytes];

    /// <summary>Creates a get whose answers go to <paramref name="outcome"/>.</summary>
    public StoreGet(IGetOutcome outcome)
    {
        Outcome = outcome;
        Request = new ClientRequest { Key = _key, Operation = KeyValueOperation.Get };
    }

    /// <summary>Gets what hears how each get ended.</summary>
    public IGetOutcome Outcome { get; }

    /// <summary>Gets the request, the same object for every get (its key changes).</summary>
    public ClientRequest Request { get; }

    /// <summary>Gets the key read.</summary>
    public Key Key { get; private set; }

    /// <summary>Gets or sets the store that asks the primary, set when the get starts.</summary>
    internal KeyValueService? Store { get; set; }

    /// <summary>Gets or sets when the get started, a timestamp of the node's clock: its time runs from there, retries included.</summary>
    internal long StartedAt { get; set; }

    /// <summary>Prepares the next get, of <paramref name="key"/>.</summary>
    public void Prepare(Key key)
    {
        Key = key;
        key.WriteTo(_key);
    }

    /// <inheritdoc/>
    protected override void OnReply(ReadOnlySpan<byte> body) => Store!.OnGetReply(this, body);

    /// <inheritdoc/>
    protected override void OnFailed(RequestFailedException error) => Store!.OnGetFailed(this, error);
}
