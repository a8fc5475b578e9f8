using System.Text;
using CamCube.Testing;
using CamCube.Transport.Faults;

namespace CamCube.Services.Cache.Tests;

/// <summary>
/// A request whose packet is lost is sent again after the timeout the node's measured round trips
/// give (RFC 6298), not after a fixed interval: in the simulated cube, where a round trip takes
/// microseconds, a lost answer costs <see cref="CacheOptions.RetransmitIntervalMin"/>, not
/// <see cref="CacheOptions.RetransmitInterval"/> and the sweep's period.
/// </summary>
public sealed class CacheRetransmissionTests
{
    private static readonly TorusShape s_shape = new(3, 3, 3);
    private static readonly Coordinate s_requester = new(0, 0, 0);

    /// <summary>Every node gets a fault decorator that does nothing but delay its frames by 1 µs, so a test can make one lose frames.</summary>
    private static readonly FaultOptions s_noFaults = new() { Delay = TimeSpan.FromMicroseconds(1) };

    [Theory]
    [InlineData(CacheOperation.Get)]
    [InlineData(CacheOperation.Set)]
    public async Task RequestWhoseAnswerIsLostIsSentAgainAfterTheLeastIntervalOnceRoundTripsAreMeasured(CacheOperation operation)
    {
        var cube = SimulatedCube.Start(s_shape, n => n.Register(new CacheService(new CacheOptions { SecondaryReplicaCount = 0 })), new SimulatedCubeOptions { Seed = 44, Faults = s_noFaults }).PastStartLease();
        var service = cube[s_requester].GetService<CacheService>()!;
        var key = Encoding.ASCII.GetBytes(CubeKeys.RootedAtDistance(s_shape, s_requester, 2, "retransmit:"));
        Assert.Equal(CacheStatus.Stored, Run(cube, service.ExecuteAsync(new CacheRequest { Operation = CacheOperation.Set, Key = key, Value = new byte[100] })).Status);
        for (var i = 0; i < 8; i++)
        {
            Assert.Equal(CacheStatus.Hit, Run(cube, service.ExecuteAsync(new CacheRequest { Operation = CacheOperation.Get, Key = key })).Status);
        }

        // The requester loses every frame for half a millisecond: the answer to its next request, which takes microseconds to come.
        var faults = cube.FaultsAt(s_requester)!;
        var dropped = faults.FramesDropped;
        faults.Faults = new FaultOptions { DropProbability = 1 };
        var started = cube.Elapsed;
        var response = service.ExecuteAsync(new CacheRequest { Operation = operation, Key = key, Value = operation == CacheOperation.Set ? new byte[200] : [] });
        cube.RunFor(TimeSpan.FromMicroseconds(500));
        faults.Faults = s_noFaults;

        Assert.True(cube.RunUntil(() => response.IsCompleted, TimeSpan.FromSeconds(5)));
        var took = cube.Elapsed - started;
        Assert.True(faults.FramesDropped > dropped, "no frame was lost");
        Assert.Equal(operation == CacheOperation.Get ? CacheStatus.Hit : CacheStatus.Stored, (await response).Status);
        Assert.True(service.Statistics.Retransmissions >= 1, "the request was not sent again");
        var least = new CacheOptions().RetransmitIntervalMin;
        Assert.True(took >= least && took < 2 * least, $"answered {took.TotalMilliseconds:0.###} ms after it was asked (the least interval is {least.TotalMilliseconds} ms; before any sample, {new CacheOptions().RetransmitInterval.TotalMilliseconds} ms)");
    }

    [Fact]
    public void RequestOfANodeWithoutARoundTripSampleWaitsTheRetransmitIntervalBeforeItIsSentAgain()
    {
        var options = new CacheOptions { SecondaryReplicaCount = 0 };
        var cube = SimulatedCube.Start(s_shape, n => n.Register(new CacheService(options)), new SimulatedCubeOptions { Seed = 45, Faults = s_noFaults }).PastStartLease();
        var service = cube[s_requester].GetService<CacheService>()!;
        var key = Encoding.ASCII.GetBytes(CubeKeys.RootedAtDistance(s_shape, s_requester, 2, "retransmit:"));
        var faults = cube.FaultsAt(s_requester)!;
        faults.Faults = new FaultOptions { DropProbability = 1 };

        _ = service.ExecuteAsync(new CacheRequest { Operation = CacheOperation.Get, Key = key });
        cube.RunFor(options.RetransmitInterval - TimeSpan.FromMilliseconds(1));
        Assert.Equal(0, service.Statistics.Retransmissions);
        cube.RunFor(TimeSpan.FromMilliseconds(2));
        Assert.Equal(1, service.Statistics.Retransmissions);
    }

    [Fact]
    public void RetransmitIntervalMinOfZeroOrAboveTheRetransmitIntervalIsRefused()
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => new CacheOptions { RetransmitIntervalMin = TimeSpan.Zero }.Validate());
        Assert.Throws<ArgumentOutOfRangeException>(() => new CacheOptions { RetransmitIntervalMin = TimeSpan.FromMilliseconds(300) }.Validate());
    }

    private static CacheResponse Run(SimulatedCube cube, Task<CacheResponse> response)
    {
        Assert.True(cube.RunUntil(() => response.IsCompleted, TimeSpan.FromSeconds(5)));
        return response.Result;
    }
}
