using System.Buffers.Binary;
using CamCube.Packets;
using CamCube.Services;
using CamCube.Testing;
using CamCube.Transport;
using Microsoft.Extensions.Logging;

namespace CamCube.Runtime.Tests;

public class BadInputTests
{
    private const ushort Probe = 0x0100;
    private const ushort Faulty = 0x0200;

    private static (InMemoryCube Cube, List<Delivery> Log, ListLoggerFactory Logs) StartCube(bool probeFirst = true)
    {
        var log = new List<Delivery>();
        var logs = new ListLoggerFactory();
        var cube = InMemoryCube.Start(new TorusShape(3, 3, 3), n =>
        {
            if (probeFirst)
            {
                n.Register(new RecordingService(Probe, log));
            }

            n.Register(new ThrowingService(Faulty));
            if (!probeFirst)
            {
                n.Register(new RecordingService(Probe, log));
            }
        }, new InMemoryCubeOptions { LoggerFactory = logs });
        return (cube, log, logs);
    }

    private static Packet ValidFrame(InMemoryCube cube, ushort serviceId)
    {
        var packet = cube.Pool.Rent();
        packet.WriteHeader(serviceId, DestinationKind.Server, 8, new Coordinate(2, 0, 0), KeyCoordinate.At(new Coordinate(0, 0, 0), 0));
        BinaryPrimitives.WriteInt32BigEndian(packet.PayloadArea, 42);
        packet.PayloadLength = 5;
        return packet;
    }

    [Theory]
    [InlineData("short", "shorter than the 22-byte header")]
    [InlineData("version", "wire format version 7")]
    [InlineData("kind", "destination kind 9")]
    [InlineData("length", "payload length field says 100")]
    [InlineData("outside", "outside the torus 3x3x3")]
    public void MalformedFramesAreDroppedCountedAndLogged(string defect, string expectedLog)
    {
        var (cube, log, logs) = StartCube();
        var node = cube[new Coordinate(0, 0, 0)];
        var frame = ValidFrame(cube, Probe);
        switch (defect)
        {
            case "short": frame.Length = 10; break;
            case "version": frame.Buffer[PacketHeader.VersionOffset] = 7; break;
            case "kind": frame.Buffer[PacketHeader.KindOffset] = 9; break;
            case "length": BinaryPrimitives.WriteUInt16BigEndian(frame.Buffer.AsSpan(PacketHeader.PayloadLengthOffset), 100); break;
            case "outside": frame.Source = new Coordinate(9, 0, 0); break;
        }

        ((ITransportSink)node).OnFrameReceived(LinkDirection.MinusX, frame);
        cube.RunUntilIdle();
        Assert.Equal(1, node.Counters.Dropped(DropReason.Malformed));
        Assert.Empty(log);
        Assert.Contains(logs.Lines, l => l.Level == LogLevel.Warning && l.Message.Contains(expectedLog, StringComparison.Ordinal));
        AssertStillWorks(cube, log);
    }

    [Fact]
    public void UnknownServiceIdIsDroppedCountedAndLogged()
    {
        var (cube, log, logs) = StartCube();
        var node = cube[new Coordinate(0, 0, 0)];
        ((ITransportSink)node).OnFrameReceived(LinkDirection.MinusX, ValidFrame(cube, 0x0999));
        Assert.Equal(1, node.Counters.Dropped(DropReason.UnknownService));
        Assert.Contains(logs.Lines, l => l.Message.Contains("service id 0x0999", StringComparison.Ordinal));
        AssertStillWorks(cube, log);
    }

    [Fact]
    public void ServiceThatThrowsLosesOnlyItsPacketAndOthersAreUnaffected()
    {
        var (cube, log, logs) = StartCube();
        var node = cube[new Coordinate(0, 0, 0)];
        ((ITransportSink)node).OnFrameReceived(LinkDirection.MinusX, ValidFrame(cube, Faulty));
        ((ITransportSink)node).OnFrameReceived(LinkDirection.MinusX, ValidFrame(cube, Probe));
        cube.RunUntilIdle();
        Assert.Equal(1, node.Counters.Dropped(DropReason.ServiceFault));
        Assert.Contains(logs.Lines, l => l.Level == LogLevel.Error && l.Message.Contains("threw in OnDeliver", StringComparison.Ordinal));
        Assert.Equal(42, Assert.Single(log).PacketId);
        AssertStillWorks(cube, log);
    }

    [Fact]
    public void HopLimitStopsAPacketAndCountsIt()
    {
        var log = new List<Delivery>();
        var cube = InMemoryCube.Start(new TorusShape(8, 1, 1), n => n.Register(new RecordingService(Probe, log)),
            new InMemoryCubeOptions { NodeOptions = () => new NodeOptions { HopLimit = 2, PublishMetrics = false } });
        cube[new Coordinate(0, 0, 0)].GetService<RecordingService>()!.SendToServer(new Coordinate(4, 0, 0), 1);
        cube[new Coordinate(0, 0, 0)].GetService<RecordingService>()!.SendToServer(new Coordinate(2, 0, 0), 2);
        cube.RunUntilIdle();
        Assert.Equal([2], log.Select(d => d.PacketId));
        Assert.Equal(1, cube.LiveNodes.Sum(n => n.Counters.Dropped(DropReason.HopLimitExceeded)));
    }

    [Fact]
    public void ReleasingAPacketTwiceIsAnError()
    {
        var pool = new PacketPool();
        var packet = pool.Rent();
        packet.Release();
        var ex = Assert.Throws<InvalidOperationException>(packet.Release);
        Assert.Contains("released twice", ex.Message, StringComparison.Ordinal);
    }

    private static void AssertStillWorks(InMemoryCube cube, List<Delivery> log)
    {
        var before = log.Count;
        cube[new Coordinate(2, 2, 2)].GetService<RecordingService>()!.SendToServer(new Coordinate(0, 0, 0), 99);
        cube.RunUntilIdle();
        Assert.Equal(before + 1, log.Count);
        Assert.Equal(99, log[^1].PacketId);
    }

    [Fact]
    public void ServiceThatThrowsInFailureUpcallsIsLoggedAndTheServicesAfterItStillHearOfTheFailure()
    {
        var (cube, _, logs) = StartCube(probeFirst: false);
        var victim = new Coordinate(1, 0, 0);
        var probe = cube[new Coordinate(0, 0, 0)].GetService<RecordingService>()!;

        cube.Kill(victim);

        Assert.True(cube.RunUntil(cube.ViewsConverged, TimeSpan.FromSeconds(5)));
        Assert.Contains((LinkDirection.PlusX, false), probe.LinkChanges);
        Assert.Contains((victim, false), probe.ReachabilityChanges);
        Assert.Contains(logs.Lines, l => l.Level == LogLevel.Error && l.Message.Contains("throwing threw in OnLinkChanged on node (0,0,0)", StringComparison.Ordinal));
        Assert.Contains(logs.Lines, l => l.Level == LogLevel.Error && l.Message.Contains("throwing threw in OnServerReachabilityChanged on node (0,0,0)", StringComparison.Ordinal));
    }

    private sealed class ThrowingService(ushort id) : ServiceBase(id, "throwing")
    {
        public override bool OnDeliver(Packet packet) => throw new InvalidOperationException("this service is broken on purpose");

        public override void OnLinkChanged(LinkDirection link, bool up) => throw new InvalidOperationException("this service is broken on purpose");

        public override void OnServerReachabilityChanged(Coordinate server, bool reachable) => throw new InvalidOperationException("this service is broken on purpose");
    }
}
