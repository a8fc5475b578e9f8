using CamCube.Testing;
using CamCube.Testing.Linearizability;

namespace CamCube.Services.KeyValue.Tests.Simulation;

/// <summary>
/// Concurrent gets, puts and compare-and-swaps on one key (by default) from several clients at each
/// of five nodes of a simulated 3x3x3 cube, while servers are killed, restarted, cut off and
/// reconnected at random; everything comes from one seed, so a failing run replays bit for bit.
/// Many clients on few keys, each starting its next operation within a millisecond, keep several
/// operations of a key in flight at once, so a stale read or a lost write shows as a history that
/// is not linearizable.
/// </summary>
internal sealed class RegisterWorkload
{
    public static readonly KeyValueServiceOptions StoreOptions = new()
    {
        RequestTimeout = TimeSpan.FromSeconds(1),
        ReplicationTimeout = TimeSpan.FromMilliseconds(200),
        ReadLease = TimeSpan.FromMilliseconds(200),
        LeaseDriftMargin = TimeSpan.FromMilliseconds(20),
    };

    private static readonly TorusShape s_shape = new(3, 3, 3);
    private static readonly Coordinate[] s_clientNodes = [new(0, 0, 0), new(1, 2, 0), new(2, 1, 1), new(0, 2, 2), new(2, 0, 2)];
    private readonly Random _faultRandom;

    /// <param name="seed">Everything random in the run comes from it.</param>
    /// <param name="options">The store's settings; <see cref="StoreOptions"/> if null.</param>
    /// <param name="keyCount">How many keys the clients share.</param>
    /// <param name="clientsPerNode">How many clients each of the five client nodes runs.</param>
    /// <param name="frameFaults">What every node does to the frames it receives (lost, duplicated, held back so that later ones overtake them); none if null.</param>
    /// <param name="readShare">The share of gets among the clients' operations.</param>
    public RegisterWorkload(int seed, KeyValueServiceOptions? options = null, int keyCount = 2, int clientsPerNode = 3, Transport.Faults.FaultOptions? frameFaults = null, double readShare = 0.4)
    {
        Seed = seed;
        Store = StoreCube.StartSimulated(s_shape, new SimulatedCubeOptions { Seed = seed, Faults = frameFaults ?? Transport.Faults.FaultOptions.None }, options ?? StoreOptions);
        Cube = (SimulatedCube)Store.Cube;
        Random = new Random(seed);

        // The faults draw from a generator of their own: which faults come, and when, depends on the
        // seed alone, not on how many operations the store completed in between.
        _faultRandom = new Random(seed * 7919 + 1);
        Keys = [.. Enumerable.Range(0, keyCount).Select(i => Key.FromString($"register-{seed}-{i}"))];
        var targets = Keys.SelectMany(key => KeySpace.For(s_shape).GetServersForKey(key, StoreOptions.ReplicaCount + 1)).Except(s_clientNodes).Distinct().ToArray();
        Faults = new FaultSchedule(Cube, _faultRandom, s_clientNodes, targets, Store.Wipe, HoldsItsKeys);
        ClientsPerNode = clientsPerNode;
        ReadShare = readShare;
    }

    public double ReadShare { get; }

    public int ClientsPerNode { get; }

    public int Seed { get; }

    public StoreCube Store { get; }

    public SimulatedCube Cube { get; }

    public Random Random { get; }

    public Key[] Keys { get; }

    public FaultSchedule Faults { get; }

    /// <summary>Runs the workload for <paramref name="duration"/> with a fault every 50 to 200 ms, heals everything, and returns the history.</summary>
    public List<HistoryOperation<RegisterInput, RegisterOutput>> Run(TimeSpan duration)
    {
        var history = new List<HistoryOperation<RegisterInput, RegisterOutput>>();
        var clients = Enumerable.Range(0, s_clientNodes.Length * ClientsPerNode)
            .Select(i => new RegisterClient(i, Store[s_clientNodes[i % s_clientNodes.Length]], Keys, new Random(Seed * 31 + i), ReadShare))
            .ToArray();
        var end = Cube.Elapsed + duration;
        var nextFault = Cube.Elapsed + NextFaultIn();
        while (Cube.Elapsed < end)
        {
            var wakeUp = Min(end, nextFault, clients.Where(c => c.IsIdle).Select(c => c.NextStart).DefaultIfEmpty(end).Min());
            if (wakeUp > Cube.Elapsed)
            {
                Cube.RunUntil(() => clients.Any(c => c.HasAnswer), wakeUp - Cube.Elapsed);
            }

            Serve(clients, history, starting: true);
            if (Cube.Elapsed >= nextFault)
            {
                Faults.Step();
                nextFault = Cube.Elapsed + NextFaultIn();
            }
        }

        // Let the last operations finish (or fail) before the cube heals, then read every key once more.
        Cube.RunUntil(() => clients.All(c => c.IsIdle || c.HasAnswer), StoreOptions.RequestTimeout * 2);
        Serve(clients, history, starting: false);
        history.AddRange(clients.Select(c => c.Abandon()).OfType<HistoryOperation<RegisterInput, RegisterOutput>>());
        Faults.HealAll();
        Assert.True(Cube.RunUntil(Cube.ViewsConverged, TimeSpan.FromSeconds(10)), $"seed {Seed}: views did not converge after healing.");
        ReadEveryKeyOnceMore(history, clients.Length);
        return history;
    }

    /// <summary>
    /// Reads every key through each client node in turn, one read at a time, into the history: a
    /// write lost or a stale copy served after the cube healed makes the history not linearizable.
    /// A read that fails is asked again (a server just restarted may still be waiting out a lease),
    /// and every key must be read through every client node.
    /// </summary>
    private void ReadEveryKeyOnceMore(List<HistoryOperation<RegisterInput, RegisterOutput>> history, int firstReaderId)
    {
        const int AttemptsMax = 3;
        var readers = s_clientNodes.Select((node, i) => new RegisterClient(firstReaderId + i, Store[node], Keys, Random, readShare: 1)).ToArray();
        for (var key = 0; key < Keys.Length; key++)
        {
            for (var i = 0; i < readers.Length; i++)
            {
                var reader = readers[i];
                HistoryOperation<RegisterInput, RegisterOutput>? read = null;
                for (var attempt = 0; attempt < AttemptsMax && read is null; attempt++)
                {
                    reader.StartRead(key, Cube.Elapsed.Ticks);
                    Cube.RunUntil(() => reader.HasAnswer, StoreOptions.RequestTimeout * 2);
                    read = reader.HasAnswer ? reader.Finish(Cube.Elapsed.Ticks) : reader.Abandon();
                }

                Assert.True(read is not null, $"seed {Seed}: key {key} could not be read through {s_clientNodes[i]} after the cube healed ({AttemptsMax} attempts).");
                history.Add(read);
            }
        }
    }

    private static TimeSpan Min(params TimeSpan[] times) => times.Min();

    /// <summary>
    /// Whether <paramref name="server"/> holds every key whose replica set it is in (the first r of
    /// the key's walk that are not <paramref name="down"/>) when another server of that set holds
    /// it: a server back with an empty disk has caught up.
    /// </summary>
    private bool HoldsItsKeys(Coordinate server, IReadOnlyCollection<Coordinate> down)
    {
        foreach (var key in Keys)
        {
            var set = KeySpace.For(s_shape).GetServersForKey(key, (int)s_shape.ServerCount).Where(s => !down.Contains(s)).Take(StoreOptions.ReplicaCount).ToArray();
            if (Array.IndexOf(set, server) >= 0 && Holds(server, key) is false && set.Any(other => Holds(other, key) is true))
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>Whether a live server's storage holds the key; null when the server is not running.</summary>
    private bool? Holds(Coordinate server, Key key) =>
        Cube.LiveNodes.FirstOrDefault(node => node.Self == server)?.GetService<KeyValueService>() is { } store ? store.Storage.Read(key) is not null : null;

    private TimeSpan NextFaultIn() => TimeSpan.FromMilliseconds(50 + _faultRandom.Next(150));

    private void Serve(RegisterClient[] clients, List<HistoryOperation<RegisterInput, RegisterOutput>> history, bool starting)
    {
        var now = Cube.Elapsed.Ticks;
        foreach (var client in clients)
        {
            if (client.HasAnswer)
            {
                if (client.Finish(now) is { } finished)
                {
                    history.Add(finished);
                }
                client.NextStart = Cube.Elapsed + TimeSpan.FromMicroseconds(Random.Next(0, 1_000));
            }

            if (starting && client.IsIdle && client.NextStart <= Cube.Elapsed)
            {
                client.Start(now);
            }
        }
    }
}
