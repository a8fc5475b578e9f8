using System.Diagnostics.Metrics;
using CamCube.Packets;
using CamCube.Services;
using CamCube.Testing;

namespace CamCube.Runtime.Tests;

public class RegistrationTests
{
    [Fact]
    public void DuplicateServiceIdIsRejectedNamingBothServices()
    {
        var log = new List<Delivery>();
        var cube = InMemoryCube.Start(new TorusShape(2, 1, 1), n => n.Register(new RecordingService(0x0100, log)));
        var ex = Assert.Throws<ArgumentException>(() => cube[new Coordinate(0, 0, 0)].Register(new RecordingService(0x0100, log)));
        Assert.Contains("0x0100", ex.Message, StringComparison.Ordinal);
        Assert.Contains("already registered", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void ReservedIdsAndBadWeightsAreRejected()
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => new RecordingService(0xFF01, []));
        Assert.Throws<ArgumentOutOfRangeException>(() => new RecordingService(0, []));
        var cube = InMemoryCube.Start(new TorusShape(2, 1, 1));
        Assert.Throws<ArgumentOutOfRangeException>(() => cube[new Coordinate(0, 0, 0)].Register(new RecordingService(5, []), weight: 0));
    }

    [Fact]
    public void DeregisteredServiceGetsNoMorePacketsAndTheyAreCountedUnknown()
    {
        var log = new List<Delivery>();
        var cube = InMemoryCube.Start(new TorusShape(3, 1, 1), n => n.Register(new RecordingService(0x0100, log)));
        var target = cube[new Coordinate(1, 0, 0)];
        Assert.True(target.Deregister(0x0100));
        Assert.False(target.Deregister(0x0100));
        cube[new Coordinate(0, 0, 0)].GetService<RecordingService>()!.SendToServer(target.Self, 1);
        cube.RunUntilIdle();
        Assert.Empty(log);
        Assert.Equal(1, target.Counters.Dropped(DropReason.UnknownService));
    }

    [Fact]
    public void ServiceCallsTheLocalApiOfAnotherService()
    {
        var log = new List<Delivery>();
        var cube = InMemoryCube.Start(new TorusShape(2, 1, 1), n =>
        {
            n.Register(new RecordingService(0x0100, log));
            n.Register(new CallerService());
        });
        var caller = cube[new Coordinate(0, 0, 0)].GetService<CallerService>()!;
        Assert.Equal(RouteStatus.Queued, caller.AskRecorderToSend(new Coordinate(1, 0, 0)));
        cube.RunUntilIdle();
        Assert.Equal(new Coordinate(1, 0, 0), Assert.Single(log).At);
    }

    [Fact]
    public void CountersArePublishedThroughSystemDiagnosticsMetrics()
    {
        var log = new List<Delivery>();
        var cube = InMemoryCube.Start(new TorusShape(3, 1, 1), n => n.Register(new RecordingService(0x0100, log)),
            new InMemoryCubeOptions { NodeOptions = () => new NodeOptions { PublishMetrics = true } });
        cube[new Coordinate(0, 0, 0)].GetService<RecordingService>()!.SendToServer(new Coordinate(1, 0, 0), 1);
        cube.RunUntilIdle();

        var measurements = new List<(string Instrument, long Value, Dictionary<string, object?> Tags)>();
        using var listener = new MeterListener();
        listener.InstrumentPublished = (instrument, l) =>
        {
            if (instrument.Meter.Name == "CamCube.Runtime")
            {
                l.EnableMeasurementEvents(instrument);
            }
        };
        listener.SetMeasurementEventCallback<long>((instrument, value, tags, _) =>
            measurements.Add((instrument.Name, value, tags.ToArray().ToDictionary(t => t.Key, t => t.Value))));
        listener.Start();
        listener.RecordObservableInstruments();

        var sent = measurements.Where(m => m.Instrument == "camcube.service.packets_sent"
            && (string?)m.Tags["camcube.node"] == "(0,0,0)" && (string?)m.Tags["camcube.service"] == "recording-256");
        Assert.Equal(1, Assert.Single(sent).Value);
        Assert.Contains(measurements, m => m.Instrument == "camcube.link.packets_received" && (string?)m.Tags["camcube.link"] == "-x" && m.Value > 0);
        Assert.Contains(measurements, m => m.Instrument == "camcube.packets_dropped" && (string?)m.Tags["camcube.reason"] == "Malformed");
    }

    private sealed class CallerService() : ServiceBase(0x0300, "caller")
    {
        public RouteStatus AskRecorderToSend(Coordinate server) => Node.GetService<RecordingService>()!.SendToServer(server, 5);

        public override bool OnDeliver(Packet packet) => false;
    }
}
