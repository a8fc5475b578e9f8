using CamCube.Testing;
using Xunit.Abstractions;

namespace CamCube.Services.Reliable.Tests;

public sealed class ReliableThroughputTests(ITestOutputHelper output)
{
    [Fact]
    public async Task HundredMegabytesCrossThreeHopsAtNinetyPercentOfTheLinkRateWhenTheSimulatedLinksAreOneGigabit()
    {
        // A ring of eight servers: (0,0,0) to (3,0,0) is three hops on exactly one shortest path,
        // so the transfer can use no more than one link's rate. Virtual time is deterministic, so the
        // rate is asserted here (docs/experiments.md records it).
        var shape = new TorusShape(8, 1, 1);
        var cube = ReliableCube.Simulated(shape, new SimulatedCubeOptions { Seed = 7 }, new ReliableOptions { MessageBytesMax = 100_000_000 });
        var source = new Coordinate(0, 0, 0);
        var destination = new Coordinate(3, 0, 0);
        const int length = 100_000_000;
        var body = ReliableCube.Payload(seed: 7, index: 0, length);
        var start = cube.Cube.Elapsed;

        var sent = cube.EndpointOf(source).SendAsync(destination, body);
        Assert.True(cube.Cube.RunUntil(() => sent.IsCompleted, TimeSpan.FromSeconds(5)));

        await sent;
        var elapsed = cube.Cube.Elapsed - start;
        var rateBitsPerSecond = length * 8.0 / elapsed.TotalSeconds;
        output.WriteLine($"100 MB over 3 hops in {elapsed.TotalMilliseconds:0.000} ms of virtual time: {rateBitsPerSecond / 1e9:0.0000} Gbps ({rateBitsPerSecond / SimulatedCubeOptionsDefaults.LinkBitsPerSecond:P2} of the link), {cube.EndpointOf(source).RetransmittedPackets} retransmitted");
        Assert.True(rateBitsPerSecond >= 0.9 * SimulatedCubeOptionsDefaults.LinkBitsPerSecond, $"rate {rateBitsPerSecond / 1e9:0.000} Gbps");
        Assert.Equal(body, Assert.Single(cube.InboxOf(destination).Messages).Body);

        // Paced through Poll, the sender never overfills a link: no node dropped a packet, so none was sent twice.
        Assert.Equal(0, cube.EndpointOf(source).RetransmittedPackets);
        Assert.All(cube.Cube.LiveNodes, node => Assert.Equal(0, node.Counters.DroppedTotal));
    }
}
