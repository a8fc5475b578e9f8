using CamCube.Packets;
using CamCube.Services;
using CamCube.Testing;

namespace CamCube.Runtime.Tests;

public class AllocationTests
{
    [Fact]
    public void RoutingForwardingAndDeliveringAllocateNothingInSteadyState()
    {
        var cube = InMemoryCube.Start(new TorusShape(9, 1, 1), n => n.Register(new SinkService()));
        var source = cube[new Coordinate(0, 0, 0)].GetService<SinkService>()!;
        void Burst()
        {
            for (var i = 0; i < 500; i++)
            {
                source.Send(new Coordinate(4, 0, 0));
            }

            cube.RunUntilIdle();
        }

        for (var i = 0; i < 5; i++)
        {
            Burst();
        }

        var sink = cube[new Coordinate(4, 0, 0)].GetService<SinkService>()!;
        var deliveredBefore = sink.Delivered;
        var runs = 0;
        Assert.Equal(0, AllocationProbe.OnCurrentThread(() =>
        {
            Burst();
            runs++;
        }));
        Assert.Equal(deliveredBefore + (runs * 500), sink.Delivered);
    }

    [Fact]
    public void MultiTargetSendToSixServersAllocatesNothingInSteadyState()
    {
        var cube = InMemoryCube.Start(new TorusShape(3, 3, 3), n => n.Register(new FanOutService()));
        var source = cube[new Coordinate(0, 0, 0)].GetService<FanOutService>()!;
        var children = new Coordinate[] { new(1, 0, 0), new(2, 0, 0), new(0, 1, 1), new(1, 1, 1), new(2, 2, 2), new(0, 2, 1) };
        var services = children.Select(c => cube[c].GetService<FanOutService>()!).ToArray();
        var sent = 0;
        void Burst()
        {
            for (var i = 0; i < 200; i++)
            {
                sent += source.Send(children, 1_000);
            }

            cube.RunUntilIdle();
        }

        for (var i = 0; i < 5; i++)
        {
            Burst();
        }

        Assert.Equal(0, AllocationProbe.OnCurrentThread(Burst));
        Assert.Equal(sent, services.Sum(s => s.Delivered));
    }

    [Fact]
    public void ExtendedRoutingAllocatesNothingInSteadyState()
    {
        var cube = InMemoryCube.Start(new TorusShape(4, 4, 1), n => n.Register(new ChainService()));
        var source = cube[new Coordinate(0, 0, 0)].GetService<ChainService>()!;
        var chain = new[] { new KeyCoordinate(2, 0, 0, 5), new KeyCoordinate(2, 2, 0, 9) };
        source.FOverride = null;

        // ChainService records evaluations in a list, which allocates as it grows: warm it past the measured burst.
        for (var i = 0; i < 600; i++)
        {
            source.Send(i, chain);
        }

        cube.RunUntilIdle();
        foreach (var node in cube.LiveNodes)
        {
            node.GetService<ChainService>()!.Evaluations.Clear();
            node.GetService<ChainService>()!.Arrivals.Clear();
        }

        var destination = cube[new Coordinate(2, 2, 0)].GetService<ChainService>()!;
        var services = cube.LiveNodes.Select(n => n.GetService<ChainService>()!).ToArray();
        Assert.Equal(0, AllocationProbe.OnCurrentThread(() =>
        {
            foreach (var service in services)
            {
                service.Evaluations.Clear();
                service.Arrivals.Clear();
            }

            for (var i = 0; i < 300; i++)
            {
                source.Send(i, chain);
            }

            cube.RunUntilIdle();
        }));
        Assert.Equal(300, destination.Arrivals.Count);
    }

    private sealed class SinkService() : ServiceBase(0x0100, "sink")
    {
        public long Delivered { get; private set; }

        public void Send(Coordinate server)
        {
            var packet = Node.CreatePacket();
            packet.PayloadLength = 32;
            Node.RouteToServer(packet, server);
        }

        public override bool OnDeliver(Packet packet)
        {
            Delivered++;
            return false;
        }
    }
}
