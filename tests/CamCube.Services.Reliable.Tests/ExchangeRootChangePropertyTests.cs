using CamCube.Testing;
using CsCheck;

namespace CamCube.Services.Reliable.Tests;

/// <summary>
/// Requests to a key while the network drops, duplicates and reorders packets and the key's home
/// server dies and comes back (so the key's root changes twice, and the home's next life has
/// forgotten its earlier one): no request is taken twice, by two roots or by two lives of one.
/// </summary>
public sealed class ExchangeRootChangePropertyTests
{
    private static readonly TorusShape s_shape = new(3, 3, 3);
    private static readonly Coordinate s_home = new(1, 1, 1);
    private static readonly Coordinate[] s_askers = [new(0, 0, 0), new(2, 1, 0), new(1, 2, 2)];

    /// <summary>A run: the simulator's seed, the requests' sizes, when the home dies and how long it stays dead (ms).</summary>
    private static readonly Gen<(int Seed, int[] Sizes, int KillAt, int DeadFor)> s_runs =
        Gen.Select(Gen.Int[1, int.MaxValue], Gen.Int[1, 1_000].Array[10, 40], Gen.Int[0, 60], Gen.Int[0, 300]);

    [Fact]
    public void NoRequestIsTakenTwiceAndEveryAnsweredOneWasTakenOnceWhenTheKeysRootChangesUnderLoss()
    {
        s_runs.Sample(run => Run(run.Seed, run.Sizes, run.KillAt, run.DeadFor), iter: 100, threads: 1, print: run => $"seed {run.Seed}, {run.Sizes.Length} requests, kill at {run.KillAt} ms for {run.DeadFor} ms");
    }

    private static void Run(int seed, int[] sizes, int killAt, int deadFor)
    {
        var cube = ReliableCube.Simulated(s_shape, new SimulatedCubeOptions { Seed = seed, Faults = LossyFaults.Options }, LossyFaults.Patience);
        var key = KeyCoordinate.At(s_home, (ushort)seed);
        var outcomes = new List<(byte[] Request, ExchangeOutcome Outcome)>();
        var killed = false;
        var restarted = false;
        for (var i = 0; i < sizes.Length; i++)
        {
            // One request every 5 ms, from the askers in turn; the home dies and returns meanwhile.
            var now = cube.Cube.Elapsed.TotalMilliseconds;
            if (!killed && now >= killAt)
            {
                cube.Cube.Kill(s_home);
                killed = true;
            }

            if (killed && !restarted && now >= killAt + deadFor)
            {
                cube.Cube.Restart(s_home);
                restarted = true;
            }

            var request = ReliableCube.Payload(seed, i, sizes[i]);
            var outcome = new ExchangeOutcome();
            Assert.Null(cube.EndpointOf(s_askers[i % s_askers.Length]).Request(key, request, ExchangeOutcome.Completion, outcome, out _));
            outcomes.Add((request, outcome));
            cube.Cube.RunFor(TimeSpan.FromMilliseconds(5));
        }

        if (!killed)
        {
            cube.Cube.Kill(s_home);
        }

        if (!restarted)
        {
            cube.Cube.Restart(s_home);
        }

        Assert.True(cube.Cube.RunUntil(() => outcomes.All(o => o.Outcome.Ended), TimeSpan.FromMinutes(3)), "not every exchange ended within 3 min of virtual time");
        cube.Cube.RunFor(TimeSpan.FromSeconds(5));

        var taken = cube.EveryInbox.SelectMany(inbox => inbox.Requests.Select(r => (inbox.Self, r.Body))).ToList();
        foreach (var (request, outcome) in outcomes)
        {
            var takers = taken.Where(t => t.Body.AsSpan().SequenceEqual(request)).Select(t => t.Self).ToList();
            Assert.True(takers.Count <= 1, $"request of {request.Length} bytes taken {takers.Count} times, by {string.Join(", ", takers)}");
            Assert.Equal(1, outcome.Calls);
            if (outcome.Error is null)
            {
                Assert.Equal(Inbox.ReplyTo(request), outcome.Reply);
                Assert.Equal(outcome.Source, Assert.Single(takers));
            }
            else
            {
                Assert.Contains(outcome.Error.Reason, new[] { ReliableFailure.OutcomeUnknown, ReliableFailure.PeerUnreachable });
            }
        }
    }
}
