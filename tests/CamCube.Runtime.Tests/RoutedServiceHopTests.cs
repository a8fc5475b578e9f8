using CamCube.Packets;
using CamCube.Services;
using CamCube.Testing;

namespace CamCube.Runtime.Tests;

/// <summary>
/// A routed service that keeps the base hop inspection has its packets handed to its router by the
/// node directly; one that overrides it must still see every hop. Both must route alike.
/// </summary>
public class RoutedServiceHopTests
{
    private static readonly TorusShape s_shape = new(3, 3, 3);

    private static readonly KeyCoordinate[] s_chain =
    [
        new(2, 0, 0, 0),
        new(2, 2, 0, 0),
        new(0, 2, 2, 0),
    ];

    [Fact]
    public void ChainIsEvaluatedInOrderWhenTheNodeHandsPacketsToTheRouterDirectly() =>
        AssertChainEvaluatedInOrder<PassingKeyListService>(() => new PassingKeyListService());

    [Fact]
    public void ChainIsEvaluatedInOrderWhenTheServiceInspectsEveryHop() =>
        AssertChainEvaluatedInOrder<InspectingKeyListService>(() => new InspectingKeyListService());

    [Fact]
    public void ServiceThatInspectsHopsSeesEveryForwardingAndResponsibleHop()
    {
        var cube = SendOneEntryAcrossTheCube(() => new InspectingKeyListService());

        // Three hops: the source's F, two servers on the way forward it, the third is responsible.
        var services = cube.LiveNodes.Select(n => n.GetService<InspectingKeyListService>()!).ToList();
        Assert.Equal(2, services.Sum(s => s.ForwardingHops));
        Assert.Equal(1, services.Sum(s => s.ResponsibleHops));
        Assert.Equal(1, cube[new Coordinate(2, 2, 2)].GetService<InspectingKeyListService>()!.ResponsibleHops);
    }

    [Fact]
    public void DirectlyRoutedPacketIsCountedAsDeliveredOnlyWhereFIsAsked()
    {
        var cube = SendOneEntryAcrossTheCube(() => new PassingKeyListService());

        var target = cube[new Coordinate(2, 2, 2)];
        var serviceId = target.GetService<PassingKeyListService>()!.ServiceId;
        Assert.Equal(1, target.GetServiceCounters(serviceId)!.PacketsDelivered);
        Assert.Equal(0, cube.LiveNodes.Where(n => n.Self != target.Self).Sum(n => n.GetServiceCounters(serviceId)!.PacketsDelivered));
    }

    /// <summary>Sends one packet from (0,0,0) whose only entry is (2,2,2,0), three hops away, and runs the cube until idle.</summary>
    private static InMemoryCube SendOneEntryAcrossTheCube<T>(Func<T> create)
        where T : KeyListService
    {
        var cube = InMemoryCube.Start(s_shape, n => n.Register(create()));
        cube[new Coordinate(0, 0, 0)].GetService<T>()!.Send([new KeyCoordinate(2, 2, 2, 0)]);
        cube.RunUntilIdle();
        return cube;
    }

    private static void AssertChainEvaluatedInOrder<T>(Func<T> create)
        where T : KeyListService
    {
        var cube = InMemoryCube.Start(s_shape, n => n.Register(create()));
        var source = cube[new Coordinate(0, 0, 0)].GetService<T>()!;

        Assert.Equal(RouteStatus.Queued, source.Send(s_chain));
        cube.RunUntilIdle();

        var evaluations = cube.LiveNodes.SelectMany(n => n.GetService<T>()!.Evaluations).OrderBy(e => e.HopCount).ToList();

        // F at the source, then at each entry's server, in order, after the hops between them.
        Assert.Equal(
            [(new Coordinate(0, 0, 0), 0), (new Coordinate(2, 0, 0), 1), (new Coordinate(2, 2, 0), 2), (new Coordinate(0, 2, 2), 4)],
            evaluations.Select(e => (e.At, e.HopCount)));
        Assert.All(evaluations, e => Assert.Equal(e.At, e.Current.Home));

        // The last F returns nothing: that packet is dropped and counted, and nothing else is lost.
        Assert.Equal(1, cube[new Coordinate(0, 2, 2)].Counters.Dropped(DropReason.EmptyTargetSet));
        Assert.Equal(1, cube.LiveNodes.Sum(n => n.Counters.DroppedTotal));
    }

    /// <summary>F returns the next entry of a key list carried in the packet.</summary>
    private abstract class KeyListService(ushort serviceId, string name) : RoutedServiceBase(serviceId, name)
    {
        private const int ListOffset = 2;

        public List<(Coordinate At, KeyCoordinate Current, int HopCount)> Evaluations { get; } = [];

        public RouteStatus Send(KeyCoordinate[] keys)
        {
            var packet = Node.CreatePacket();
            var area = packet.PayloadArea;
            area[0] = 0;
            area[1] = (byte)keys.Length;
            for (var i = 0; i < keys.Length; i++)
            {
                keys[i].Write(area[(ListOffset + (KeyCoordinate.WireSizeBytes * i))..]);
            }

            packet.PayloadLength = ListOffset + (KeyCoordinate.WireSizeBytes * keys.Length);
            return Router.Route(packet);
        }

        public override int F(Packet packet, KeyCoordinate current, Span<KeyCoordinate> next)
        {
            Evaluations.Add((Node.Self, current, packet.HopCount));
            var payload = packet.Payload;
            if (payload[0] >= payload[1])
            {
                return 0;
            }

            next[0] = KeyCoordinate.Read(payload[(ListOffset + (KeyCoordinate.WireSizeBytes * payload[0]))..]);
            payload[0]++;
            return 1;
        }
    }

    /// <summary>Keeps the base hop inspection: the node hands its packets to the router itself.</summary>
    private sealed class PassingKeyListService() : KeyListService(0x0520, "key-list-passing");

    /// <summary>Counts the hops it inspects, forwarding and responsible.</summary>
    private sealed class InspectingKeyListService() : KeyListService(0x0521, "key-list-inspecting"), IHopInspector
    {
        public int ForwardingHops { get; private set; }

        public int ResponsibleHops { get; private set; }

        public HopAction OnHop(Packet packet, bool responsible)
        {
            if (responsible)
            {
                ResponsibleHops++;
            }
            else
            {
                ForwardingHops++;
            }

            return HopAction.Route;
        }
    }
}
