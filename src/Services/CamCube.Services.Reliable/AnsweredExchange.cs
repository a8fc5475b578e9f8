using System.Buffers;

namespace CamCube.Services.Reliable;

/// <summary>
/// A request the responder handed to its handler: running until the handler replies, then the
/// reply kept in a pooled buffer, sent again for each duplicate of the request.
/// </summary>
internal sealed class AnsweredExchange
{
    /// <summary>Gets whether the handler replied; until then a duplicate gets a busy notice.</summary>
    public bool Replied => Reply is not null;

    /// <summary>Gets the kept reply (rented from the shared pool), or null while the handler runs.</summary>
    public byte[]? Reply { get; private set; }

    public int ReplyLength { get; private set; }

    /// <summary>Keeps a copy of the reply.</summary>
    public void Keep(ReadOnlySpan<byte> reply)
    {
        var buffer = ArrayPool<byte>.Shared.Rent(Math.Max(reply.Length, 1));
        reply.CopyTo(buffer);
        Reply = buffer;
        ReplyLength = reply.Length;
    }

    /// <summary>Returns the kept reply's buffer, before the entry goes back to the pool.</summary>
    public void Clear()
    {
        if (Reply is { } buffer)
        {
            Reply = null;
            ArrayPool<byte>.Shared.Return(buffer);
        }

        ReplyLength = 0;
    }
}
