using System.Buffers.Binary;
using CamCube.Packets;

namespace CamCube.Transport.Simulation.Tests;

/// <summary>Frames for tests: a sequence number in the first payload bytes.</summary>
internal static class TestFrames
{
    public static Packet Make(PacketPool pool, int lengthBytes, int sequence = 0)
    {
        var frame = pool.Rent();
        frame.WriteHeader(7, DestinationKind.Server, 16, default, default);
        frame.Length = lengthBytes;
        BinaryPrimitives.WriteInt32BigEndian(frame.Buffer.AsSpan(PacketHeader.SizeBytes), sequence);
        return frame;
    }

    public static int SequenceOf(Packet frame) => BinaryPrimitives.ReadInt32BigEndian(frame.Buffer.AsSpan(PacketHeader.SizeBytes));
}
