using System.Numerics;

namespace CamCube.Services.Reliable;

/// <summary>
/// A request the responder handed to its handler: running until the handler replies, then the
/// reply kept, sent again for each duplicate of the request. Or a request to a key that the
/// responder refused, not being the key's root: refused again for each duplicate, even once the
/// responder is the root, since the asker may have taken it elsewhere since. Pooled by the endpoint with its
/// buffer, which grows to the largest reply it kept (at most one packet's), so keeping a reply
/// allocates nothing in steady state (the shared array pool would, with thousands outstanding).
/// </summary>
internal sealed class AnsweredExchange
{
    private const int BufferBytesMin = 64;

    private byte[] _buffer = [];

    /// <summary>Gets whether the handler replied; until then a duplicate gets a busy notice.</summary>
    public bool Replied { get; private set; }

    /// <summary>Gets whether the request was refused (the responder was not the root of its key): never handled here.</summary>
    public bool Refused { get; private set; }

    /// <summary>Gets or sets the copy of the request the handler took (its copy byte): the handler's reply names it.</summary>
    public byte TakenCopy { get; set; }

    /// <summary>Gets the kept reply; empty while the handler runs.</summary>
    public ReadOnlySpan<byte> Reply => _buffer.AsSpan(0, ReplyLength);

    private int ReplyLength { get; set; }

    /// <summary>Keeps a copy of the reply.</summary>
    public void Keep(ReadOnlySpan<byte> reply)
    {
        if (_buffer.Length < reply.Length)
        {
            _buffer = new byte[Math.Max(BufferBytesMin, (int)BitOperations.RoundUpToPowerOf2((uint)reply.Length))];
        }

        reply.CopyTo(_buffer);
        ReplyLength = reply.Length;
        Replied = true;
    }

    /// <summary>Marks the request as refused.</summary>
    public void Refuse() => Refused = true;

    /// <summary>Forgets the reply (its buffer stays for the next use), before the entry goes back to the pool.</summary>
    public void Clear()
    {
        Replied = false;
        Refused = false;
        TakenCopy = 0;
        ReplyLength = 0;
    }
}
