using System.Buffers.Binary;
using CamCube.Packets;
using CamCube.Services;

namespace CamCube.Runtime.Tests;

/// <summary>One delivery a <see cref="RecordingService"/> saw.</summary>
internal readonly record struct Delivery(Coordinate At, ushort ServiceId, int PacketId, int Counter, int HopCount, Coordinate Source);

/// <summary>
/// A test service: its payload is a 4-byte packet id and a 1-byte counter that every forward
/// upcall and the deliver upcall increment; deliveries go to a log shared by the whole cube.
/// </summary>
internal sealed class RecordingService(ushort serviceId, List<Delivery> log) : ServiceBase(serviceId, "recording-" + serviceId)
{
    public int Forwards { get; private set; }

    public List<(Coordinate Server, bool Reachable)> ReachabilityChanges { get; } = [];

    public List<(LinkDirection Link, bool Up)> LinkChanges { get; } = [];

    public Func<Packet, ForwardDecision>? OnForwardHook { get; set; }

    /// <summary>Gets the service's handle on its node, for tests of the API itself.</summary>
    public INodeContext Context => Node;

    public RouteStatus SendToKey(KeyCoordinate key, int packetId) => Node.RouteToKey(Make(packetId), key);

    public RouteStatus SendToServer(Coordinate server, int packetId) => Node.RouteToServer(Make(packetId), server);

    public override bool OnDeliver(Packet packet)
    {
        var payload = packet.Payload;
        payload[4]++;
        log.Add(new Delivery(Node.Self, packet.ServiceId, BinaryPrimitives.ReadInt32BigEndian(payload), payload[4], packet.HopCount, packet.Source));
        return false;
    }

    public override ForwardDecision OnForward(Packet packet)
    {
        Forwards++;
        packet.Payload[4]++;
        return OnForwardHook?.Invoke(packet) ?? ForwardDecision.Forward;
    }

    public override void OnServerReachabilityChanged(Coordinate server, bool reachable) => ReachabilityChanges.Add((server, reachable));

    public override void OnLinkChanged(LinkDirection link, bool up) => LinkChanges.Add((link, up));

    private Packet Make(int packetId)
    {
        var packet = Node.CreatePacket();
        BinaryPrimitives.WriteInt32BigEndian(packet.PayloadArea, packetId);
        packet.PayloadArea[4] = 0;
        packet.PayloadLength = 5;
        return packet;
    }
}
