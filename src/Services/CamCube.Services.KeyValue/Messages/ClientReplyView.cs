namespace CamCube.Services.KeyValue.Messages;

/// <summary>
/// A <see cref="ClientReply"/> read in place from its protobuf encoding (docs/keyvalue.proto), for the
/// read path: no object and no array, the value a slice of the encoding. Unknown fields are skipped,
/// as protobuf-net skips them.
/// </summary>
internal readonly ref struct ClientReplyView
{
    private const int WireVarint = 0;
    private const int WireFixed64 = 1;
    private const int WireLengthDelimited = 2;
    private const int WireFixed32 = 5;

    /// <summary>Gets whether the request was served, or why not.</summary>
    public ReplyStatus Status { get; private init; }

    /// <summary>Gets the version of the value read (0: none).</summary>
    public long Version { get; private init; }

    /// <summary>Gets whether a get found a value.</summary>
    public bool Found { get; private init; }

    /// <summary>Gets the value a get found: a slice of the encoding.</summary>
    public ReadOnlySpan<byte> Value { get; private init; }

    /// <summary>Gets why a request was rejected, in UTF-8: a slice of the encoding.</summary>
    public ReadOnlySpan<byte> Reason { get; private init; }

    /// <summary>Gets the front-end lease granted with the reply, in microseconds (0: none).</summary>
    public long LeaseMicroseconds { get; private init; }

    /// <summary>Reads a reply; false if the bytes are not a well-formed protobuf message.</summary>
    public static bool TryRead(ReadOnlySpan<byte> encoded, out ClientReplyView reply)
    {
        reply = default;
        ReplyStatus status = default;
        long version = 0;
        var found = false;
        ReadOnlySpan<byte> value = default;
        ReadOnlySpan<byte> reason = default;
        long lease = 0;
        var at = 0;
        while (at < encoded.Length)
        {
            if (!TryReadVarint(encoded, ref at, out var tag))
            {
                return false;
            }

            ulong number = 0;
            var length = 0;
            var read = (int)(tag & 7) switch
            {
                WireVarint => TryReadVarint(encoded, ref at, out number),
                WireFixed64 => TrySkip(encoded, ref at, sizeof(ulong)),
                WireLengthDelimited => TryReadLength(encoded, ref at, out length),
                WireFixed32 => TrySkip(encoded, ref at, sizeof(uint)),
                _ => false,
            };
            if (!read)
            {
                return false;
            }

            switch (tag >> 3)
            {
                case 1: status = (ReplyStatus)number; break;
                case 3: version = (long)number; break;
                case 4: found = number != 0; break;
                case 5: value = encoded.Slice(at - length, length); break;
                case 6: reason = encoded.Slice(at - length, length); break;
                case 7: lease = (long)number; break;
            }
        }

        reply = new ClientReplyView { Status = status, Version = version, Found = found, Value = value, Reason = reason, LeaseMicroseconds = lease };
        return true;
    }

    private static bool TryReadVarint(ReadOnlySpan<byte> encoded, ref int at, out ulong value)
    {
        value = 0;
        for (var shift = 0; shift < 64 && at < encoded.Length; shift += 7)
        {
            var b = encoded[at++];
            value |= (ulong)(b & 0x7F) << shift;
            if (b < 0x80)
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>Reads a length-delimited field's length and moves past its bytes.</summary>
    private static bool TryReadLength(ReadOnlySpan<byte> encoded, ref int at, out int length)
    {
        length = 0;
        if (!TryReadVarint(encoded, ref at, out var declared) || declared > (ulong)(encoded.Length - at))
        {
            return false;
        }

        length = (int)declared;
        at += length;
        return true;
    }

    private static bool TrySkip(ReadOnlySpan<byte> encoded, ref int at, int length)
    {
        if (encoded.Length - at < length)
        {
            return false;
        }

        at += length;
        return true;
    }
}
