using System.Buffers.Binary;

namespace CamCube.Fuzz;

/// <summary>
/// The layout of the binary targets' inputs: a series of records, each a control byte, a 2-byte
/// big-endian length and that many bytes (fewer if the input ends first), so one input can carry
/// several frames or datagrams (fragments of one value, a replay after an original).
/// </summary>
public static class InputRecords
{
    /// <summary>The bytes before a record's body.</summary>
    public const int PrefixBytes = 3;

    /// <summary>The most records one input feeds in.</summary>
    public const int RecordsMax = 64;

    /// <summary>Splits <paramref name="input"/> into at most <see cref="RecordsMax"/> records.</summary>
    public static List<(byte Control, ArraySegment<byte> Body)> Split(byte[] input)
    {
        ArgumentNullException.ThrowIfNull(input);
        var records = new List<(byte, ArraySegment<byte>)>();
        var offset = 0;
        while (offset + PrefixBytes <= input.Length && records.Count < RecordsMax)
        {
            var control = input[offset];
            int length = BinaryPrimitives.ReadUInt16BigEndian(input.AsSpan(offset + 1));
            offset += PrefixBytes;
            length = Math.Min(length, input.Length - offset);
            records.Add((control, new ArraySegment<byte>(input, offset, length)));
            offset += length;
        }

        return records;
    }

    /// <summary>Joins records into one input, the inverse of <see cref="Split"/> (for seeds).</summary>
    public static byte[] Join(params (byte Control, byte[] Body)[] records)
    {
        ArgumentNullException.ThrowIfNull(records);
        var output = new List<byte>();
        foreach (var (control, body) in records)
        {
            output.Add(control);
            output.Add((byte)(body.Length >> 8));
            output.Add((byte)body.Length);
            output.AddRange(body);
        }

        return [.. output];
    }
}
