using System.Buffers.Binary;
using CamCube.Packets;
using CamCube.Services;

namespace CamCube.Experiments;

/// <summary>
/// The churn workload of camcubeos 4.2.5 as a service: the node routes packets to random keys at a
/// fixed rate, and every delivery is checked by the oracle.
/// </summary>
/// <param name="oracle">The shared oracle.</param>
/// <param name="random">A seeded random source of this node (keys and phase).</param>
/// <param name="packetsPerSecond">How many packets to send per second.</param>
/// <param name="payloadBytes">The payload of each packet.</param>
public sealed class KeyTrafficService(DeliveryOracle oracle, Random random, double packetsPerSecond, int payloadBytes) : ServiceBase(ServiceIdValue, "key-traffic")
{
    /// <summary>The service id of the key workload.</summary>
    public const ushort ServiceIdValue = 0x0A12;

    private Pacer? _pacer;

    /// <summary>Starts sending; the first packet goes out at a random phase within one interval.</summary>
    public void Begin()
    {
        ArgumentNullException.ThrowIfNull(random);
        if (!IsRegistered)
        {
            return;
        }

        _pacer ??= new Pacer(Node.TimeProvider, packetsPerSecond, SendOne);
        _pacer.Start(TimeSpan.FromSeconds(random.NextDouble() / packetsPerSecond));
    }

    /// <summary>Stops sending.</summary>
    public void End() => _pacer?.Stop();

    /// <inheritdoc/>
    public override void OnDeregistered()
    {
        End();
        base.OnDeregistered();
    }

    /// <inheritdoc/>
    public override bool OnDeliver(Packet packet)
    {
        ArgumentNullException.ThrowIfNull(packet);
        ArgumentNullException.ThrowIfNull(oracle);
        oracle.OnDelivered(Node.Self, packet.Destination, packet.Source, packet.HopCount);
        return false;
    }

    private void SendOne()
    {
        if (!IsRegistered || !oracle.IsCountingSends)
        {
            return;
        }

        var packet = Node.CreatePacket();
        packet.PayloadLength = payloadBytes;
        oracle.OnSent();
        Span<byte> bits = stackalloc byte[sizeof(ulong)];
        random.NextBytes(bits);
        Node.RouteToKey(packet, Key.FromRoutingBits(BinaryPrimitives.ReadUInt64LittleEndian(bits)));
    }
}
