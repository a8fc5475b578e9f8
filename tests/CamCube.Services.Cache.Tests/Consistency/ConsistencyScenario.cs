using System.Text;
using CamCube.Testing;
using CamCube.Transport.Faults;

namespace CamCube.Services.Cache.Tests.Consistency;

/// <summary>
/// A 3x3x3 simulated cube running the real cache service, with clients on several front-ends that
/// each issue one request after another (sets, deletes and gets of a few hot keys) while every
/// node's transport drops, duplicates and reorders frames, and, with server faults, servers other
/// than the front-ends are killed, restarted (empty), cut off by all their cables and reconnected,
/// at most two at once. Everything random comes from the seed.
/// </summary>
internal sealed class ConsistencyScenario
{
    private readonly SimulatedCube _cube;
    private readonly Random _random;
    private readonly List<HistoryRequest> _history = [];
    private readonly string[] _keys;
    private readonly Coordinate[] _frontEnds;
    private readonly TimeSpan _duration;
    private readonly Random? _faultRandom;
    private readonly List<Coordinate> _dead = [];
    private readonly List<Coordinate> _isolated = [];
    private TimeSpan _end;
    private int _written;
    private int _outstanding;

    public ConsistencyScenario(int seed, FaultOptions faults, int clients, int keys, TimeSpan duration, bool serverFaults = false, CacheOptions? options = null)
    {
        var shape = new TorusShape(3, 3, 3);
        _cube = new SimulatedCube(shape, n => n.Register(new CacheService(options)), new SimulatedCubeOptions { Seed = seed, Faults = faults });
        _random = _cube.Engine.CreateRandom(-7);
        _keys = Enumerable.Range(0, keys).Select(i => $"hot:{i}").ToArray();
        _frontEnds = Enumerable.Range(0, clients).Select(i => shape.CoordinateAt((i * 5) % shape.ServerCount)).ToArray();
        _duration = duration;
        _faultRandom = serverFaults ? new Random((seed * 7919) + 3) : null;
    }

    /// <summary>Gets the server faults, each with its virtual time, for a failing test's output.</summary>
    public List<string> FaultLog { get; } = [];

    /// <summary>Gets how many servers were killed.</summary>
    public int Kills { get; private set; }

    /// <summary>Gets how many servers were cut off by all their cables.</summary>
    public int CutOffs { get; private set; }

    public IReadOnlyList<HistoryRequest> History => _history;

    public long Retransmissions { get; private set; }

    /// <summary>Gets the frames the fault decorators dropped, over every node.</summary>
    public long FramesDropped { get; private set; }

    /// <summary>Fills copies of every key everywhere, then runs the clients for the duration and until every request completed.</summary>
    public void Run()
    {
        _cube.StartAll();
        Warm();
        _end = _cube.Engine.Elapsed + _duration;
        for (var client = 0; client < _frontEnds.Length; client++)
        {
            IssueNext(client);
        }

        var limit = _end + TimeSpan.FromSeconds(30);
        var nextFault = _faultRandom is null ? TimeSpan.MaxValue : _cube.Engine.Elapsed + NextFaultIn();
        while (!_cube.Engine.RunUntil(() => _outstanding == 0 && _cube.Engine.Elapsed >= _end, nextFault < limit ? nextFault : limit))
        {
            Assert.True(_cube.Engine.Elapsed < limit, "the clients' last requests did not complete within 30 virtual seconds of the end");
            if (_cube.Engine.Elapsed < _end)
            {
                StepFaults();
                nextFault = _cube.Engine.Elapsed + NextFaultIn();
            }
            else
            {
                HealAll();
                nextFault = TimeSpan.MaxValue;
            }
        }

        HealAll();
        for (long i = 0; i < _cube.Shape.ServerCount; i++)
        {
            var server = _cube.Shape.CoordinateAt(i);
            Retransmissions += _cube[server].GetService<CacheService>()!.Statistics.Retransmissions;
            FramesDropped += _cube.FaultsAt(server)?.FramesDropped ?? 0;
        }
    }

    private TimeSpan NextFaultIn() => TimeSpan.FromMilliseconds(50 + _faultRandom!.Next(150));

    /// <summary>Kills, restarts, cuts off or reconnects one server; most faults hit the hot keys' roots.</summary>
    private void StepFaults()
    {
        var random = _faultRandom!;
        var faulty = _dead.Count + _isolated.Count;
        var roll = random.NextDouble();
        if (faulty < 2 && roll < 0.35)
        {
            var victim = PickHealthy(random);
            _cube.Kill(victim);
            Note($"kill {victim}");
            _dead.Add(victim);
            Kills++;
        }
        else if (faulty < 2 && roll < 0.55)
        {
            var victim = PickHealthy(random);
            _cube.SetCutOff(victim, cutOff: true);
            Note($"cut off {victim}");
            _isolated.Add(victim);
            CutOffs++;
        }
        else if (_dead.Count > 0 && roll < 0.8)
        {
            var back = _dead[random.Next(_dead.Count)];
            _dead.Remove(back);
            _cube.Restart(back);
            Note($"restart {back}");
        }
        else if (_isolated.Count > 0)
        {
            var back = _isolated[random.Next(_isolated.Count)];
            _isolated.Remove(back);
            _cube.SetCutOff(back, cutOff: false);
            Note($"reconnect {back}");
        }
    }

    private void Note(string fault) => FaultLog.Add($"{_cube.Engine.Elapsed.TotalMilliseconds:F3} ms: {fault}");

    private void HealAll()
    {
        if (_dead.Count + _isolated.Count > 0)
        {
            Note("every server back");
        }

        foreach (var server in _dead)
        {
            _cube.Restart(server);
        }

        foreach (var server in _isolated)
        {
            _cube.SetCutOff(server, cutOff: false);
        }

        _dead.Clear();
        _isolated.Clear();
    }

    private Coordinate PickHealthy(Random random)
    {
        var keySpace = KeySpace.For(_cube.Shape);
        while (true)
        {
            var server = random.NextDouble() < 0.7
                ? _cube.TrueRoot(keySpace.KeyCoordinateOf(CacheKeys.MemId(Encoding.ASCII.GetBytes(_keys[random.Next(_keys.Length)]))))
                : _cube.Shape.CoordinateAt(random.NextInt64(_cube.Shape.ServerCount));
            if (!_frontEnds.Contains(server) && !_dead.Contains(server) && !_isolated.Contains(server))
            {
                return server;
            }
        }
    }

    /// <summary>Every key set once, then read through every server, so hot-spot copies exist before the clients start.</summary>
    private void Warm()
    {
        foreach (var key in _keys)
        {
            Await(Issue(0, CacheOperation.Set, key, NextValue(0)));
            for (long i = 0; i < _cube.Shape.ServerCount; i++)
            {
                Await(Issue(_cube.Shape.CoordinateAt(i), CacheOperation.Get, key, null, client: -1));
            }
        }
    }

    private void Await(HistoryRequest request) =>
        Assert.True(_cube.RunUntil(() => request.CompletedAt != TimeSpan.MaxValue, TimeSpan.FromSeconds(10)), $"warm-up request did not complete: {request}");

    private void IssueNext(int client)
    {
        if (_cube.Engine.Elapsed >= _end)
        {
            return;
        }

        var key = _keys[_random.Next(_keys.Length)];
        var roll = _random.Next(100);
        var (operation, value) = roll switch
        {
            < 30 => (CacheOperation.Set, NextValue(client)),
            < 35 => (CacheOperation.Delete, (string?)null),
            _ => (CacheOperation.Get, (string?)null),
        };
        Issue(client, operation, key, value);
    }

    private HistoryRequest Issue(int client, CacheOperation operation, string key, string? value) =>
        Issue(_frontEnds[client], operation, key, value, client);

    private HistoryRequest Issue(Coordinate at, CacheOperation operation, string key, string? value, int client)
    {
        var request = new HistoryRequest(client, operation, key, value, _cube.Engine.Elapsed, OnCompleted);
        if (client >= 0)
        {
            _history.Add(request);
            _outstanding++;
        }

        _cube[at].GetService<CacheService>()!.Execute(request);
        return request;
    }

    private void OnCompleted(HistoryRequest request)
    {
        request.CompletedAt = _cube.Engine.Elapsed;
        if (request.Client >= 0)
        {
            _outstanding--;
        }

        if (request.Client >= 0 && _cube.Engine.Elapsed < _end)
        {
            // A short, random think time keeps clients from marching in step.
            var client = request.Client;
            _cube.Engine.At(_cube.Engine.Elapsed + TimeSpan.FromMicroseconds(_random.Next(1, 2_000)), () => IssueNext(client));
        }
    }

    private string NextValue(int client) => $"v{client}.{++_written}";
}
