using System.Buffers.Binary;
using CamCube.Packets;
using CamCube.Services;

namespace CamCube.Runtime.Tests.Shared;

/// <summary>
/// A test service for the multi-target send (<see cref="INodeContext.Transmit"/>), run unchanged on the
/// in-memory, simulated and UDP transports (this file is linked into their test projects): it sends one
/// payload, from a pool the test counts, to several servers, and records every payload that arrives.
/// </summary>
internal sealed class MulticastProbeService() : ServiceBase(Id, "multicast-probe")
{
    public const ushort Id = 0x0701;

    /// <summary>Gets each payload delivered here: its source, its hops and a copy of its bytes (read it on the loop).</summary>
    public List<(Coordinate Source, byte Hops, byte[] Payload)> Arrivals { get; } = [];

    /// <summary>Gets a payload of <paramref name="length"/> bytes that differs from byte to byte, seeded by <paramref name="seed"/>.</summary>
    public static byte[] MakePayload(int length, int seed)
    {
        var payload = new byte[length];
        new Random(seed).NextBytes(payload);
        return payload;
    }

    /// <summary>Gets the payload of round <paramref name="round"/> of a test that sends many: 300 bytes that start with the round number.</summary>
    public static byte[] MakeRoundPayload(int round)
    {
        var payload = MakePayload(300, round);
        BinaryPrimitives.WriteUInt16BigEndian(payload, (ushort)round);
        return payload;
    }

    /// <summary>Gets the round a payload made by <see cref="MakeRoundPayload"/> belongs to.</summary>
    public static int RoundOf(byte[] payload) => BinaryPrimitives.ReadUInt16BigEndian(payload);

    /// <summary>
    /// On the loop: rents one packet from <paramref name="pool"/>, writes <paramref name="payload"/> into it,
    /// sends it to every server of <paramref name="servers"/> with one call and releases it, as a caller does.
    /// </summary>
    /// <returns>What became of each server's header, in order.</returns>
    public RouteStatus[] Transmit(PacketPool pool, byte[] payload, params Coordinate[] servers)
    {
        var packet = pool.Rent();
        payload.CopyTo(packet.PayloadArea);
        packet.PayloadLength = payload.Length;
        var statuses = new RouteStatus[servers.Length];
        Node.Transmit(packet, servers, statuses);
        packet.Release();
        return statuses;
    }

    /// <inheritdoc/>
    public override bool OnDeliver(Packet packet)
    {
        Arrivals.Add((packet.Source, packet.HopCount, packet.Payload.ToArray()));
        return false;
    }
}
