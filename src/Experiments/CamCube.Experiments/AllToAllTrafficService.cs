using CamCube.Packets;
using CamCube.Services;

namespace CamCube.Experiments;

/// <summary>
/// The all-to-all workload of camcubeos 4.2.3 as a service: the node sends packets to every other
/// live server in turn, at the plan's rate, routed on shortest paths by the runtime; no flow
/// control. Deliveries are counted by the plan's meter.
/// </summary>
/// <param name="plan">The shared plan.</param>
/// <param name="random">A seeded random source of this node (phase and order of destinations).</param>
public sealed class AllToAllTrafficService(AllToAllPlan plan, Random random) : ServiceBase(ServiceIdValue, "all-to-all")
{
    /// <summary>The service id of the all-to-all workload.</summary>
    public const ushort ServiceIdValue = 0x0A11;

    private Pacer? _pacer;
    private long _sent;
    private int _offset;
    private int _selfIndex;

    /// <summary>Starts sending; the first packet goes out at a random phase within one interval.</summary>
    public void Begin()
    {
        ArgumentNullException.ThrowIfNull(random);
        _selfIndex = (int)Node.Shape.IndexOf(Node.Self);
        _offset = random.Next(plan.Servers.Length - 1);
        _pacer = new Pacer(Node.TimeProvider, plan.PacketsPerSecond, SendOne);
        _pacer.Start(TimeSpan.FromSeconds(random.NextDouble() / plan.PacketsPerSecond));
    }

    /// <summary>Stops sending.</summary>
    public void End()
    {
        _pacer?.Stop();
        _pacer = null;
    }

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
        plan.Meter.Delivered(_selfIndex, packet.Length);
        return false;
    }

    private void SendOne()
    {
        if (!IsRegistered)
        {
            return;
        }

        var packet = Node.CreatePacket();
        packet.PayloadLength = plan.PayloadBytes;
        plan.Meter.Offered();
        Node.RouteToServer(packet, plan.Destination(Node.Self, _sent++, _offset));
    }
}
