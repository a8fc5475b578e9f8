using System.Globalization;
using CamCube.Cli.Cube;

namespace CamCube.Integration.Tests;

/// <summary>samples/ReplicatedCounter as the 27 processes of `cube up --node`: a counter asked at one node is kept by other processes, and survives its root's kill.</summary>
[System.Runtime.Versioning.UnsupportedOSPlatform("windows")]
public sealed class ReplicatedCounterCubeTests : IDisposable
{
    private const string Name = "visits";
    private static readonly TorusShape s_shape = new(3, 3, 3);
    private static readonly TimeSpan s_patience = TimeSpan.FromSeconds(60);
    private readonly string _state = Path.Combine("/tmp", "cc-rc-" + Guid.NewGuid().ToString("N")[..8]);
    private readonly CubeLayout _layout;

    public ReplicatedCounterCubeTests()
    {
        _layout = new CubeLayout(_state);
    }

    [Fact]
    public void CounterContinuesOnAnotherProcessWhenItsRootIsKilled()
    {
        // Ports of our own, apart from the other tests' ranges (and below 10,000, where CubeFixture's memcached ports start).
        var basePort = 7_000 + (Environment.ProcessId % 90 * 30);
        var program = Path.Combine(AppContext.BaseDirectory, "ReplicatedCounter.dll");
        var (exit, output, error) = Camcube.Run(_state, "cube", "up", "--detach", "--shape", s_shape.ToString(), "--base-port", basePort.ToString(CultureInfo.InvariantCulture), "--node", program);
        Assert.True(exit == 0, output + error);
        var servers = KeySpace.For(s_shape).GetServersForKey(Key.FromString(Name), 3);
        var askers = Enumerable.Range(0, (int)s_shape.ServerCount).Select(i => s_shape.CoordinateAt(i)).Where(c => !servers.Contains(c)).Take(3).ToArray();
        Assert.True(Wait.Until(() => AllReach(27), s_patience), "the 27 nodes did not all see each other");

        // A read changes nothing, so it may be asked again until the cube answers (beside other tests' cubes on a busy machine).
        Assert.True(Wait.Until(() => askers.All(a => Counter(a, "read", Name) == "visits=0"), s_patience), "the counter's root did not answer reads");

        Assert.Equal("visits=1", Counter(askers[0], "increment", Name));
        Assert.Equal("visits=3", Counter(askers[1], "increment", Name, "2"));
        Assert.Equal("visits=3", Counter(askers[2], "read", Name));

        Assert.Equal(0, Camcube.Run(_state, "cube", "kill", Argument(servers[0])).Exit);
        Assert.True(Wait.Until(() => AllReach(26), s_patience), "the nodes did not all notice the root's death");
        Assert.True(Wait.Until(() => Counter(askers[2], "read", Name) == "visits=3", s_patience), "the first copy did not answer for the dead root");

        Assert.Equal("visits=4", Counter(askers[1], "increment", Name));
        Assert.Equal("visits=4", Counter(askers[0], "read", Name));
    }

    public void Dispose()
    {
        Camcube.Run(_state, "cube", "down");
        if (Directory.Exists(_state))
        {
            Directory.Delete(_state, recursive: true);
        }
    }

    private static string Argument(Coordinate c) => string.Create(CultureInfo.InvariantCulture, $"{c.X},{c.Y},{c.Z}");

    private string Counter(Coordinate node, params string[] words)
    {
        using var answer = RawControl.Ask(_layout.NodeSocket(node), "counter " + string.Join(' ', words), TimeSpan.FromSeconds(10));
        return answer.RootElement.TryGetProperty("result", out var result) ? result.GetString()! : answer.RootElement.GetRawText();
    }

    /// <summary>Whether every live node reaches exactly <paramref name="count"/> servers.</summary>
    private bool AllReach(int count)
    {
        var answered = 0;
        for (var i = 0; i < s_shape.ServerCount; i++)
        {
            using var status = RawControl.TryAsk(_layout.NodeSocket(s_shape.CoordinateAt(i)), "status", TimeSpan.FromSeconds(5));
            if (status is null)
            {
                continue;
            }

            if (!status.RootElement.TryGetProperty("reachable", out var reachable) || reachable.GetInt64() != count)
            {
                return false;
            }

            answered++;
        }

        return answered == count;
    }
}
