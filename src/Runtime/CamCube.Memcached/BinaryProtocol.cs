using System.Buffers;
using System.Buffers.Binary;

namespace CamCube.Memcached;

/// <summary>
/// The little the front-end knows of memcached's binary protocol, which it does not speak: how a
/// binary request starts, and the reply memcached 1.6 gives to a binary command it does not know.
/// </summary>
internal static class BinaryProtocol
{
    /// <summary>The first byte of every binary request; no text command starts with it.</summary>
    public const byte RequestMagic = 0x80;

    /// <summary>The length of a request or response header, in bytes.</summary>
    public const int HeaderBytes = 24;

    private const byte ResponseMagic = 0x81;
    private const ushort UnknownCommandStatus = 0x0081;

    /// <summary>Writes memcached's answer to an unknown binary command for the request whose header is <paramref name="request"/>: the same opcode and opaque, status 0x0081 and the text "Unknown command".</summary>
    public static void WriteUnknownCommand(in ReadOnlySequence<byte> request, IBufferWriter<byte> writer)
    {
        Span<byte> header = stackalloc byte[HeaderBytes];
        request.Slice(0, HeaderBytes).CopyTo(header);
        var body = "Unknown command"u8;
        var response = writer.GetSpan(HeaderBytes + body.Length);
        response[..HeaderBytes].Clear();
        response[0] = ResponseMagic;
        response[1] = header[1];
        BinaryPrimitives.WriteUInt16BigEndian(response[6..], UnknownCommandStatus);
        BinaryPrimitives.WriteUInt32BigEndian(response[8..], (uint)body.Length);
        header[12..16].CopyTo(response[12..]);
        body.CopyTo(response[HeaderBytes..]);
        writer.Advance(HeaderBytes + body.Length);
    }
}
