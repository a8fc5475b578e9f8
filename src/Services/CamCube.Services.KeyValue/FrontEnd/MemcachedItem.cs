using System.Buffers;
using System.Buffers.Binary;

namespace CamCube.Services.KeyValue.FrontEnd;

/// <summary>
/// A memcached item as the front-end keeps it in the store: a 24-byte header (the client's flags,
/// when it expires, when it was written) before the client's bytes, so flags round-trip and expiry
/// and flush_all can be decided on read (MemcachedItemFormat.md). A value without the header,
/// written by another service through <see cref="IKeyValueStore"/>, reads as flags 0, never
/// expiring, never flushed, all its bytes the data.
/// </summary>
/// <param name="Flags">The client's opaque flags.</param>
/// <param name="ExpiresAtUnixMilliseconds">When the item expires, in Unix milliseconds; 0 never.</param>
/// <param name="WrittenAtTicks">When the item was written, in UTC ticks (100 ns); 0 for a value without the header.</param>
/// <param name="Data">The client's bytes.</param>
internal readonly record struct MemcachedItem(uint Flags, long ExpiresAtUnixMilliseconds, long WrittenAtTicks, ReadOnlyMemory<byte> Data)
{
    /// <summary>The header's length, in bytes.</summary>
    public const int HeaderBytes = KeyValueFrontEndOptions.ItemHeaderBytes;

    // "mc", format 1, a reserved byte: what no header-less value is likely to begin with by chance.
    private const uint Magic = 0x6D_63_01_00;

    /// <summary>Gets whether the item is no longer valid at <paramref name="now"/>: expired, or written before a flush that has taken effect.</summary>
    /// <param name="now">The current time.</param>
    /// <param name="flush">The last flush_all.</param>
    /// <returns>True when a read must not see the item.</returns>
    public bool IsGone(DateTimeOffset now, FlushMark flush) =>
        (ExpiresAtUnixMilliseconds != 0 && now.ToUnixTimeMilliseconds() >= ExpiresAtUnixMilliseconds)
        || flush.Hides(WrittenAtTicks, now.UtcTicks);

    /// <summary>Reads an item from a stored value.</summary>
    /// <param name="stored">The value's bytes.</param>
    /// <returns>The item; the whole value as data when it has no header.</returns>
    public static MemcachedItem Decode(ReadOnlyMemory<byte> stored)
    {
        var item = DecodeHeader(stored.Span, out var headerBytes);
        return item with { Data = stored[headerBytes..] };
    }

    /// <summary>Reads an item's header from a stored value, leaving its data out (it is the value's bytes from <paramref name="headerBytes"/> on).</summary>
    /// <param name="stored">The value's bytes.</param>
    /// <param name="headerBytes">The header's length: <see cref="HeaderBytes"/>, or 0 when the value has none.</param>
    /// <returns>The item without its data.</returns>
    public static MemcachedItem DecodeHeader(ReadOnlySpan<byte> stored, out int headerBytes)
    {
        if (stored.Length < HeaderBytes || BinaryPrimitives.ReadUInt32BigEndian(stored) != Magic)
        {
            headerBytes = 0;
            return default;
        }

        headerBytes = HeaderBytes;
        return new MemcachedItem(
            BinaryPrimitives.ReadUInt32BigEndian(stored[4..]),
            BinaryPrimitives.ReadInt64BigEndian(stored[8..]),
            BinaryPrimitives.ReadInt64BigEndian(stored[16..]),
            default);
    }

    /// <summary>Gets the expiry time of a memcached expiry in seconds from now.</summary>
    /// <param name="expirationSeconds">0 never, -1 already expired, else seconds from now.</param>
    /// <param name="now">The current time.</param>
    /// <returns>Unix milliseconds, 0 for never.</returns>
    public static long ExpiresAt(int expirationSeconds, DateTimeOffset now) =>
        expirationSeconds switch
        {
            0 => 0,
            < 0 => 1,
            _ => now.ToUnixTimeMilliseconds() + (expirationSeconds * 1000L),
        };

    /// <summary>Writes the header and then the data, in two parts, into a new array.</summary>
    /// <param name="flags">The client's flags.</param>
    /// <param name="expiresAtUnixMilliseconds">When the item expires; 0 never.</param>
    /// <param name="writtenAtTicks">When it is written, in UTC ticks.</param>
    /// <param name="first">The data's first part.</param>
    /// <param name="second">Its second part (append and prepend), or empty.</param>
    /// <returns>The stored value.</returns>
    public static byte[] Encode(uint flags, long expiresAtUnixMilliseconds, long writtenAtTicks, ReadOnlySpan<byte> first, ReadOnlySpan<byte> second = default)
    {
        var stored = new byte[HeaderBytes + first.Length + second.Length];
        var span = stored.AsSpan();
        BinaryPrimitives.WriteUInt32BigEndian(span, Magic);
        BinaryPrimitives.WriteUInt32BigEndian(span[4..], flags);
        BinaryPrimitives.WriteInt64BigEndian(span[8..], expiresAtUnixMilliseconds);
        BinaryPrimitives.WriteInt64BigEndian(span[16..], writtenAtTicks);
        first.CopyTo(span[HeaderBytes..]);
        second.CopyTo(span[(HeaderBytes + first.Length)..]);
        return stored;
    }

    /// <summary>Writes the header and then <paramref name="data"/> into a new array.</summary>
    /// <param name="flags">The client's flags.</param>
    /// <param name="expiresAtUnixMilliseconds">When the item expires; 0 never.</param>
    /// <param name="writtenAtTicks">When it is written, in UTC ticks.</param>
    /// <param name="data">The data.</param>
    /// <returns>The stored value.</returns>
    public static byte[] Encode(uint flags, long expiresAtUnixMilliseconds, long writtenAtTicks, in ReadOnlySequence<byte> data)
    {
        if (data.IsSingleSegment)
        {
            return Encode(flags, expiresAtUnixMilliseconds, writtenAtTicks, data.FirstSpan);
        }

        var stored = Encode(flags, expiresAtUnixMilliseconds, writtenAtTicks, new byte[data.Length]);
        data.CopyTo(stored.AsSpan(HeaderBytes));
        return stored;
    }
}
