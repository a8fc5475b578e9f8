using CamCube.Testing;

namespace CamCube.Services.KeyValue.Tests.Simulation;

/// <summary>
/// Random kills, restarts and partitions (a server cut off by all its cables) from a seed, never
/// more than <see cref="FaultyMax"/> servers down or cut off at once (r - 1: so at most r - 1 of any
/// key's servers), and never one of the <paramref name="spared"/> servers (the clients' own); most
/// faults hit the <paramref name="targets"/> (the workload's keys' servers). Half the restarts
/// come back with an empty disk (<paramref name="wipe"/>), as a server of the memory backend does.
/// A server back with an empty disk has lost its copies until it caught up on them
/// (<paramref name="caughtUp"/>, given the servers down or cut off; without it, at once), so it
/// counts among the faulty until then: the store's promise holds while at most r - 1 of a key's
/// servers fail, and a server that lost its disk is one of them until it holds the key again.
/// </summary>
internal sealed class FaultSchedule(SimulatedCube cube, Random random, IReadOnlyCollection<Coordinate> spared, Coordinate[] targets, Action<Coordinate> wipe, Func<Coordinate, IReadOnlyCollection<Coordinate>, bool>? caughtUp = null)
{
    public const int FaultyMax = 2;

    private readonly List<Coordinate> _dead = [];
    private readonly List<Coordinate> _isolated = [];
    private readonly List<Coordinate> _recovering = [];

    public int Kills { get; private set; }

    public int Partitions { get; private set; }

    public int Wipes { get; private set; }

    /// <summary>Does one random thing: kill, restart, cut off or reconnect a server.</summary>
    public void Step()
    {
        if (caughtUp is not null)
        {
            List<Coordinate> down = [.. _dead, .. _isolated];
            _recovering.RemoveAll(server => caughtUp(server, down));
        }

        var faulty = _dead.Count + _isolated.Count + _recovering.Count;
        var roll = random.NextDouble();
        if (faulty < FaultyMax && roll < 0.35)
        {
            var victim = PickHealthy();
            cube.Kill(victim);
            _dead.Add(victim);
            Kills++;
        }
        else if (faulty < FaultyMax && roll < 0.55)
        {
            var victim = PickHealthy();
            cube.SetCutOff(victim, cutOff: true);
            _isolated.Add(victim);
            Partitions++;
        }
        else if (_dead.Count > 0 && roll < 0.8)
        {
            var back = _dead[random.Next(_dead.Count)];
            _dead.Remove(back);
            if (random.NextDouble() < 0.5)
            {
                wipe(back);
                Wipes++;
                if (caughtUp is not null)
                {
                    _recovering.Add(back);
                }
            }

            cube.Restart(back);
        }
        else if (_isolated.Count > 0)
        {
            var back = _isolated[random.Next(_isolated.Count)];
            _isolated.Remove(back);
            cube.SetCutOff(back, cutOff: false);
        }
    }

    /// <summary>Restarts every dead server and reconnects every cut-off one.</summary>
    public void HealAll()
    {
        foreach (var server in _dead)
        {
            cube.Restart(server);
        }

        foreach (var server in _isolated)
        {
            cube.SetCutOff(server, cutOff: false);
        }

        _dead.Clear();
        _isolated.Clear();
        _recovering.Clear();
    }

    private Coordinate PickHealthy()
    {
        while (true)
        {
            var server = random.NextDouble() < 0.8 ? targets[random.Next(targets.Length)] : cube.Shape.CoordinateAt(random.NextInt64(cube.Shape.ServerCount));
            if (!spared.Contains(server) && !_dead.Contains(server) && !_isolated.Contains(server) && !_recovering.Contains(server))
            {
                return server;
            }
        }
    }
}
