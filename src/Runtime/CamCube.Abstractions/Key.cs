using System.Buffers.Binary;
using System.Security.Cryptography;
using System.Text;

namespace CamCube;

/// <summary>
/// A 160-bit key (camcubeos 3.2). The 20 bytes read as one big-endian unsigned number; routing
/// uses its least significant 64 bits, <see cref="RoutingBits"/>.
/// </summary>
public readonly struct Key : IEquatable<Key>
{
    /// <summary>The size of a key in bytes.</summary>
    public const int SizeBytes = 20;

    private readonly uint _high;   // bytes 0..3
    private readonly ulong _middle; // bytes 4..11
    private readonly ulong _low;    // bytes 12..19: the routing bits

    private Key(uint high, ulong middle, ulong low)
    {
        _high = high;
        _middle = middle;
        _low = low;
    }

    /// <summary>Gets the least significant 64 bits (the last 8 bytes, big-endian): <c>k64</c> in DESIGN.md section 4.</summary>
    public ulong RoutingBits => _low;

    /// <summary>Hashes the UTF-8 bytes of <paramref name="text"/> with SHA-1.</summary>
    public static Key FromString(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        var byteCount = Encoding.UTF8.GetByteCount(text);
        var buffer = byteCount <= 512 ? stackalloc byte[byteCount] : new byte[byteCount];
        Encoding.UTF8.GetBytes(text, buffer);
        return Hash(buffer);
    }

    /// <summary>Hashes <paramref name="data"/> with SHA-1 to make a key.</summary>
    public static Key Hash(ReadOnlySpan<byte> data)
    {
        Span<byte> digest = stackalloc byte[SizeBytes];
        // SHA-1 is the papers' key hash and part of the wire contract, not a security measure.
#pragma warning disable CA5350
        SHA1.HashData(data, digest);
#pragma warning restore CA5350
        return FromBytes(digest);
    }

    /// <summary>Reads a key from exactly 20 bytes, big-endian.</summary>
    /// <exception cref="ArgumentException">The span is not 20 bytes long.</exception>
    public static Key FromBytes(ReadOnlySpan<byte> bytes)
    {
        if (bytes.Length != SizeBytes)
        {
            throw new ArgumentException($"A key is {SizeBytes} bytes; {bytes.Length} were given.", nameof(bytes));
        }

        return new Key(
            BinaryPrimitives.ReadUInt32BigEndian(bytes),
            BinaryPrimitives.ReadUInt64BigEndian(bytes[4..]),
            BinaryPrimitives.ReadUInt64BigEndian(bytes[12..]));
    }

    /// <summary>Makes a key whose 96 high bits are zero and whose routing bits are <paramref name="routingBits"/>.</summary>
    public static Key FromRoutingBits(ulong routingBits) => new(0, 0, routingBits);

    /// <summary>Parses 40 hexadecimal digits (either case).</summary>
    /// <exception cref="FormatException">The text is not 40 hexadecimal digits.</exception>
    public static Key ParseHex(string hex)
    {
        ArgumentNullException.ThrowIfNull(hex);
        if (!TryParseHex(hex, out var key))
        {
            throw new FormatException($"'{hex}' is not a key: expected {SizeBytes * 2} hexadecimal digits.");
        }

        return key;
    }

    /// <summary>Tries to parse 40 hexadecimal digits.</summary>
    public static bool TryParseHex(ReadOnlySpan<char> hex, out Key key)
    {
        key = default;
        if (hex.Length != SizeBytes * 2)
        {
            return false;
        }

        Span<byte> bytes = stackalloc byte[SizeBytes];
        if (Convert.FromHexString(hex, bytes, out _, out var written) != System.Buffers.OperationStatus.Done || written != SizeBytes)
        {
            return false;
        }

        key = FromBytes(bytes);
        return true;
    }

    /// <summary>Writes the 20 bytes, big-endian, into <paramref name="destination"/>.</summary>
    /// <exception cref="ArgumentException">The destination is shorter than 20 bytes.</exception>
    public void WriteTo(Span<byte> destination)
    {
        if (destination.Length < SizeBytes)
        {
            throw new ArgumentException($"A key needs {SizeBytes} bytes; the destination has {destination.Length}.", nameof(destination));
        }

        BinaryPrimitives.WriteUInt32BigEndian(destination, _high);
        BinaryPrimitives.WriteUInt64BigEndian(destination[4..], _middle);
        BinaryPrimitives.WriteUInt64BigEndian(destination[12..], _low);
    }

    /// <summary>Formats as 40 lower-case hexadecimal digits.</summary>
    public override string ToString()
    {
        Span<byte> bytes = stackalloc byte[SizeBytes];
        WriteTo(bytes);
        return Convert.ToHexStringLower(bytes);
    }

    /// <inheritdoc/>
    public bool Equals(Key other) => _high == other._high && _middle == other._middle && _low == other._low;

    /// <inheritdoc/>
    public override bool Equals(object? obj) => obj is Key other && Equals(other);

    /// <inheritdoc/>
    public override int GetHashCode() => HashCode.Combine(_high, _middle, _low);

    /// <summary>Compares two keys for equality.</summary>
    public static bool operator ==(Key left, Key right) => left.Equals(right);

    /// <summary>Compares two keys for inequality.</summary>
    public static bool operator !=(Key left, Key right) => !left.Equals(right);
}
