using CamCube.Packets;
using CamCube.Services;
using CamCube.Testing;

namespace CamCube.Runtime.Tests;

public class RoutedServicePollTests
{
    [Fact]
    public void RoutedServiceThatOverridesPollIsAskedItselfAndItsRouterStillSends()
    {
        var cube = InMemoryCube.Start(new TorusShape(3, 3, 3), n => n.Register(new CountingPollService()));
        var source = cube[new Coordinate(0, 0, 0)].GetService<CountingPollService>()!;

        source.SendTo(new KeyCoordinate(2, 1, 0, 0));
        cube.RunUntilIdle();

        // The node must not bypass an overriding Poll: the service saw the polls and passed the router's packet on.
        Assert.True(source.Polls > 0);
        Assert.True(source.PacketsOfferedByRouter > 0);
        Assert.Equal(1, cube[new Coordinate(2, 1, 0)].GetService<CountingPollService>()!.Arrivals);
    }

    [Fact]
    public void RoutedServiceWithTheBasePollIsPolledThroughItsRouter()
    {
        var cube = InMemoryCube.Start(new TorusShape(3, 3, 3), n => n.Register(new ChainService()));
        var source = cube[new Coordinate(0, 0, 0)].GetService<ChainService>()!;

        Assert.Equal(RouteStatus.Queued, source.Send(1, new KeyCoordinate(2, 1, 0, 0)));
        cube.RunUntilIdle();

        Assert.Equal(new Coordinate(2, 1, 0), Assert.Single(cube.LiveNodes.SelectMany(n => n.GetService<ChainService>()!.Arrivals)).At);
        Assert.Equal(0, cube[new Coordinate(0, 0, 0)].GetQueuedPacketCount(source.ServiceId));
    }

    /// <summary>Routes one-entry chains and counts the node's polls, which it answers from its router.</summary>
    private sealed class CountingPollService() : RoutedServiceBase(0x0510, "counting-poll"), IHopInspector
    {
        public int Polls { get; private set; }

        public int PacketsOfferedByRouter { get; private set; }

        public int Arrivals { get; private set; }

        private KeyCoordinate _target;

        public void SendTo(KeyCoordinate target)
        {
            _target = target;
            var packet = Node.CreatePacket();
            packet.PayloadArea[0] = 1;
            packet.PayloadLength = 1;
            Router.Route(packet);
        }

        public override Packet? Poll(LinkDirection link)
        {
            Polls++;
            var packet = base.Poll(link);
            if (packet is not null)
            {
                PacketsOfferedByRouter++;
            }

            return packet;
        }

        public override int F(Packet packet, KeyCoordinate current, Span<KeyCoordinate> next)
        {
            // The first evaluation, at the source: on to the target, marked as sent.
            packet.Payload[0] = 0;
            next[0] = _target;
            return 1;
        }

        public HopAction OnHop(Packet packet, bool responsible)
        {
            if (responsible && packet.Payload[0] == 0)
            {
                Arrivals++;
                return HopAction.Drop;
            }

            return HopAction.Route;
        }
    }
}
