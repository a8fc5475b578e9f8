using CamCube.Testing;
using CsCheck;

namespace CamCube.Services.Reliable.Tests;

public sealed class ExchangePropertyTests
{
    private static readonly TorusShape s_shape = new(3, 3, 3);

    /// <summary>A run: the simulator's seed and, per asker, the sizes of its requests.</summary>
    private static readonly Gen<(int Seed, int[][] Sizes)> s_runs =
        Gen.Select(Gen.Int[1, int.MaxValue], Gen.Int[0, 8_000].Array[1, 20].Array[3]);

    [Fact]
    public void HandlerTakesEveryRequestExactlyOnceAndEveryAskerGetsItsReplyWhenTheNetworkDropsDuplicatesAndReorders()
    {
        s_runs.Sample(run => RunLossyExchanges(run.Seed, run.Sizes), iter: 40, threads: 1, print: run => $"seed {run.Seed}, sizes [{string.Join(" | ", run.Sizes.Select(s => string.Join(',', s)))}]");
    }

    private static void RunLossyExchanges(int seed, int[][] sizes)
    {
        var cube = ReliableCube.Simulated(s_shape, new SimulatedCubeOptions { Seed = seed, Faults = LossyFaults.Options }, LossyFaults.Patience);
        var responder = new Coordinate(1, 2, 1);
        var key = KeyCoordinate.At(new Coordinate(2, 2, 2), (ushort)seed);
        var askers = new[] { new Coordinate(0, 0, 0), new Coordinate(2, 0, 1), new Coordinate(1, 1, 0) };
        var outcomes = new List<(int Asker, byte[] Request, ExchangeOutcome Outcome)>();
        for (var a = 0; a < askers.Length; a++)
        {
            var endpoint = cube.EndpointOf(askers[a]);
            for (var i = 0; i < sizes[a].Length; i++)
            {
                var request = ReliableCube.Payload(seed + a, i, sizes[a][i]);
                var outcome = new ExchangeOutcome();
                var refused = a == 2 ? endpoint.Request(key, request, ExchangeOutcome.Completion, outcome, out _) : endpoint.Request(responder, request, ExchangeOutcome.Completion, outcome, out _);
                Assert.Null(refused);
                outcomes.Add((a, request, outcome));
            }
        }

        Assert.True(cube.Cube.RunUntil(() => outcomes.All(o => o.Outcome.Ended), TimeSpan.FromMinutes(3)), "not every exchange ended within 3 min of virtual time");
        cube.Cube.RunFor(TimeSpan.FromSeconds(5));
        foreach (var (a, request, outcome) in outcomes)
        {
            Assert.Null(outcome.Error);
            Assert.Equal(1, outcome.Calls);
            Assert.Equal(Inbox.ReplyTo(request), outcome.Reply);
        }

        for (var a = 0; a < askers.Length; a++)
        {
            var handled = cube.InboxOf(a == 2 ? key.Home : responder).Requests.Where(r => r.Source == askers[a]).ToList();
            Assert.Equal(sizes[a].Length, handled.Count);
            Assert.Equal(handled.Count, handled.Select(r => r.FlowId).Distinct().Count());
        }
    }
}
