using System.Buffers.Binary;

namespace CamCube.Messaging;

/// <summary>
/// The envelope of a typed message at the start of a packet's payload, big-endian:
/// kind (1 byte), flags (1 byte, 0; reserved for a reliable mode), message type or, in a fault,
/// the <see cref="RequestFailure"/> (2 bytes), request id (8 bytes, 0 for a one-way message),
/// then the body: the protobuf-net encoding of the message, or a fault's text in UTF-8.
/// </summary>
internal readonly record struct Envelope(EnvelopeKind Kind, ushort Type, ulong RequestId)
{
    /// <summary>The envelope's size before the body.</summary>
    public const int SizeBytes = 12;

    /// <summary>Reads an envelope; false if the payload is too short or names an unknown kind or flags.</summary>
    public static bool TryRead(ReadOnlySpan<byte> payload, out Envelope envelope)
    {
        envelope = default;
        if (payload.Length < SizeBytes || payload[1] != 0 || payload[0] is < (byte)EnvelopeKind.Request or > (byte)EnvelopeKind.Fault)
        {
            return false;
        }

        envelope = new Envelope((EnvelopeKind)payload[0], BinaryPrimitives.ReadUInt16BigEndian(payload[2..]), BinaryPrimitives.ReadUInt64BigEndian(payload[4..]));
        return true;
    }

    /// <summary>Writes the envelope at the start of <paramref name="payload"/>.</summary>
    public void Write(Span<byte> payload)
    {
        payload[0] = (byte)Kind;
        payload[1] = 0;
        BinaryPrimitives.WriteUInt16BigEndian(payload[2..], Type);
        BinaryPrimitives.WriteUInt64BigEndian(payload[4..], RequestId);
    }
}
