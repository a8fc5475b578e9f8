using System.Buffers;
using ProtoBuf;

namespace CamCube.Messaging;

/// <summary>Encodes typed messages with protobuf-net into one reused buffer; the encoding is valid until the next call.</summary>
internal sealed class MessageEncoder
{
    private readonly ArrayBufferWriter<byte> _buffer = new(256);

    /// <summary>Encodes <paramref name="message"/> and returns its bytes.</summary>
    public ReadOnlySpan<byte> Encode<T>(T message)
    {
        _buffer.ResetWrittenCount();
        Serializer.Serialize<T>(_buffer, message);
        return _buffer.WrittenSpan;
    }
}
