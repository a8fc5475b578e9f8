using System.Buffers.Binary;

namespace CamCube.Messaging;

/// <summary>
/// The 12-byte envelope of a typed message at the start of a packet's payload; its layout is
/// described in docs/wire-format.md ("Typed messages").
/// </summary>
internal readonly record struct Envelope(EnvelopeKind Kind, ushort Type, ulong RequestId)
{
    /// <summary>The envelope's size before the body.</summary>
    public const int SizeBytes = 12;

    /// <summary>The flags of an envelope carried by the reliable transport (bit 0); a packet's own envelope has flags 0.</summary>
    public const byte ReliableFlag = 1;

    /// <summary>Reads an envelope of a packet; false if the payload is too short or names an unknown kind or flags.</summary>
    public static bool TryRead(ReadOnlySpan<byte> payload, out Envelope envelope) => TryRead(payload, 0, out envelope);

    /// <summary>Reads an envelope whose flags must be <paramref name="flags"/>; false if the payload is too short or names an unknown kind or other flags.</summary>
    public static bool TryRead(ReadOnlySpan<byte> payload, byte flags, out Envelope envelope)
    {
        envelope = default;
        if (payload.Length < SizeBytes || payload[1] != flags || payload[0] is < (byte)EnvelopeKind.Request or > (byte)EnvelopeKind.ReplyFollows)
        {
            return false;
        }

        envelope = new Envelope((EnvelopeKind)payload[0], BinaryPrimitives.ReadUInt16BigEndian(payload[2..]), BinaryPrimitives.ReadUInt64BigEndian(payload[4..]));
        return true;
    }

    /// <summary>Writes the envelope at the start of <paramref name="payload"/>, with <paramref name="flags"/> (0 in a packet of its own).</summary>
    public void Write(Span<byte> payload, byte flags = 0)
    {
        payload[0] = (byte)Kind;
        payload[1] = flags;
        BinaryPrimitives.WriteUInt16BigEndian(payload[2..], Type);
        BinaryPrimitives.WriteUInt64BigEndian(payload[4..], RequestId);
    }
}
