using System.Diagnostics;
using CamCube.Runtime;
using CamCube.Services.Cache;
using CamCube.Testing;

namespace CamCube.Experiments;

/// <summary>
/// One run of the hot-spot experiment: a simulated cube with the real <see cref="CacheService"/>
/// (the code that runs on UDP) on every server, loaded with the items, then the lookups, each
/// timed by the hops its hit took (the packet header's hop count, which the cache copies into its
/// answer: <see cref="CacheResponse.Hops"/>).
/// </summary>
internal static class HotSpotRun
{
    /// <summary>Stores per round, per server on average: well below <see cref="CacheOptions.PendingRequestsMax"/>.</summary>
    private const int StoresPerServerPerRound = 64;

    /// <summary>Virtual time a round may take; requests time out after 5 s.</summary>
    private static readonly TimeSpan s_roundLimit = TimeSpan.FromSeconds(30);

    /// <summary>Runs the lookups on a fresh cube whose cache uses <paramref name="k"/> secondary replicas.</summary>
    /// <param name="options">The settings.</param>
    /// <param name="k">The secondary replicas per key; 0 is base routing.</param>
    /// <param name="lookups">The lookups to make.</param>
    /// <param name="progress">Told the fraction of this run done, from 0 to 1; may be null.</param>
    public static HopStatistics Run(HotSpotOptions options, int k, HotSpotLookups lookups, IProgress<double>? progress)
    {
        var startedAt = Stopwatch.GetTimestamp();
        var cube = SimulatedCube.Start(
            options.Shape,
            node => node.Register(new CacheService(new CacheOptions { SecondaryReplicaCount = k })),
            new SimulatedCubeOptions
            {
                Seed = options.Seed,
                NodeOptions = () => new NodeOptions { PublishMetrics = false, Seed = options.Seed },
            });

        // A root answers no write for a copy lease after it starts (an earlier life's copies may still answer).
        cube.RunFor(new CacheOptions().CopyLease);
        var startSeconds = Stopwatch.GetElapsedTime(startedAt).TotalSeconds;

        var loadedAt = Stopwatch.GetTimestamp();
        Load(cube, options.Items, progress);
        var loadSeconds = Stopwatch.GetElapsedTime(loadedAt).TotalSeconds;

        var lookedUpAt = Stopwatch.GetTimestamp();
        var hops = LookUp(cube, lookups, options.LookupsInFlight, progress);
        var lookupSeconds = Stopwatch.GetElapsedTime(lookedUpAt).TotalSeconds;

        long secondaryHits = 0;
        for (long i = 0; i < options.Shape.ServerCount; i++)
        {
            secondaryHits += Cache(cube, (int)i).Statistics.SecondaryHits;
        }

        return HopStatistics.Of(k, hops, secondaryHits, cube.Engine.TraceHashHex, cube.Engine.EventCount, startSeconds, loadSeconds, lookupSeconds);
    }

    /// <summary>
    /// Stores every item with a set from its own root, so that loading costs no link traffic; the
    /// item lands where a set from any server would put it (symbiotic-routing 3.3: "populated with
    /// key-object pairs evenly distributed among the servers").
    /// </summary>
    private static void Load(SimulatedCube cube, int items, IProgress<double>? progress)
    {
        var keySpace = KeySpace.For(cube.Shape);
        var round = (int)Math.Min(items, StoresPerServerPerRound * cube.Shape.ServerCount);
        var tasks = new List<Task<CacheResponse>>(round);
        for (var first = 1; first <= items; first += round)
        {
            tasks.Clear();
            for (var rank = first; rank < first + round && rank <= items; rank++)
            {
                var key = HotSpotLookups.KeyOf(rank);
                var root = cube.TrueRoot(keySpace.KeyCoordinateOf(CacheKeys.MemId(key)));
                var request = new CacheRequest { Operation = CacheOperation.Set, Key = key, Value = HotSpotLookups.ValueOf(rank) };
                tasks.Add(Cache(cube, (int)cube.Shape.IndexOf(root)).ExecuteAsync(request));
            }

            RunUntilDone(cube, tasks);
            foreach (var task in tasks)
            {
                if (task.Result.Status != CacheStatus.Stored)
                {
                    throw new InvalidOperationException($"An item was not stored: {task.Result.Status}.");
                }
            }

            progress?.Report(0.5 * Math.Min(items, first + round - 1) / items);
        }
    }

    /// <summary>Makes the lookups in rounds and returns each one's hops to its hit, -1 for a lookup that did not hit with the right value.</summary>
    private static int[] LookUp(SimulatedCube cube, HotSpotLookups lookups, int inFlight, IProgress<double>? progress)
    {
        var hops = new int[lookups.Count];
        var tasks = new List<Task<CacheResponse>>(Math.Min(inFlight, lookups.Count));
        for (var first = 0; first < lookups.Count; first += inFlight)
        {
            tasks.Clear();
            var end = Math.Min(lookups.Count, first + inFlight);
            for (var i = first; i < end; i++)
            {
                var request = new CacheRequest { Operation = CacheOperation.Get, Key = HotSpotLookups.KeyOf(lookups.Ranks[i]) };
                tasks.Add(Cache(cube, lookups.Requesters[i]).ExecuteAsync(request));
            }

            RunUntilDone(cube, tasks);
            for (var i = first; i < end; i++)
            {
                var response = tasks[i - first].Result;
                var right = response.Status == CacheStatus.Hit && response.Value.AsSpan().SequenceEqual(HotSpotLookups.ValueOf(lookups.Ranks[i]));
                hops[i] = right ? response.Hops : -1;
            }

            progress?.Report(0.5 + (0.5 * end / lookups.Count));
        }

        return hops;
    }

    /// <summary>Runs the engine until every task has completed (each completes on the engine's thread, inside an event).</summary>
    private static void RunUntilDone(SimulatedCube cube, List<Task<CacheResponse>> tasks)
    {
        var done = 0;
        bool AllDone()
        {
            while (done < tasks.Count && tasks[done].IsCompleted)
            {
                done++;
            }

            return done == tasks.Count;
        }

        if (!cube.RunUntil(AllDone, s_roundLimit))
        {
            throw new TimeoutException($"{tasks.Count - done} cache requests did not complete within {s_roundLimit.TotalSeconds} virtual seconds.");
        }
    }

    private static CacheService Cache(SimulatedCube cube, int index) => cube[cube.Shape.CoordinateAt(index)].GetService<CacheService>()!;
}
