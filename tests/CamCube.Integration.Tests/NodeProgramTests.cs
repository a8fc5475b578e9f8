using System.Text.Json;

namespace CamCube.Integration.Tests;

/// <summary>
/// `camcube cube up --node`: the 27 processes of the cube are a user's node program built on
/// CamCube.Hosting (samples/HelloService), and every `camcube cube` command works on it.
/// </summary>
[Collection(LifecycleCubes.Name)]
[System.Runtime.Versioning.UnsupportedOSPlatform("windows")]
public sealed class NodeProgramTests
{
    private static readonly TimeSpan s_patience = TimeSpan.FromSeconds(60);

    private static readonly string s_program = Path.Combine(AppContext.BaseDirectory, "HelloService.dll");

    [Fact]
    public void AKeysOwnerAnswersFromAnotherProcessAndTheDrillsWorkWhenTheCubeRunsANodeProgram()
    {
        using var cube = new LifecycleCube("3x3x3");
        var (exit, _, error) = cube.Run(cube.UpArguments("--detach", "--node", s_program));
        Assert.True(exit == 0, error);
        Assert.Equal(s_program, cube.Supervisor()!.Value.GetProperty("nodeProgram").GetString());
        var all = Enumerable.Range(0, 27).Select(i => cube.Shape.CoordinateAt(i)).ToArray();
        Assert.True(Wait.Until(() => all.All(n => Reachable(cube, n) == 27), s_patience));

        // Asked at (0,0,0), the question travels to the key's root, another process, which answers.
        var asker = new Coordinate(0, 0, 0);
        var key = Enumerable.Range(0, 100).Select(i => "user:" + i).First(k => WhoOwns(cube, asker, k) != asker);
        var owner = WhoOwns(cube, asker, key);
        Assert.Equal(Probe(cube, asker, key), owner);
        Assert.NotEqual(Pid(cube, asker), Pid(cube, owner));

        // Kill the owner: its keys move to a live server, which answers instead; start it and it owns them again.
        (exit, _, error) = cube.Run("cube", "kill", Text(owner));
        Assert.True(exit == 0, error);
        var survivors = all.Where(n => n != owner).ToArray();
        Assert.True(Wait.Until(() => survivors.All(n => Reachable(cube, n) == 26), s_patience));
        var standIn = WhoOwns(cube, asker, key);
        Assert.NotEqual(owner, standIn);
        Assert.Equal(Probe(cube, asker, key), standIn);

        (exit, _, error) = cube.Run("cube", "start", Text(owner));
        Assert.True(exit == 0, error);
        Assert.True(Wait.Until(() => all.All(n => Reachable(cube, n) == 27), s_patience));
        Assert.Equal(owner, WhoOwns(cube, asker, key));

        // ping, status and health go through the hosting package's control socket.
        string output;
        (exit, output, error) = cube.Run("ping", "0,0,0", "1,1,1", "--json");
        Assert.True(exit == 0, error);
        Assert.Equal(3, JsonDocument.Parse(output).RootElement.GetProperty("hops").GetInt32());
        (exit, output, error) = cube.Run("cube", "health", "1,1,1");
        Assert.True(exit == 0, error);
        Assert.Equal("Healthy: 6 of 6 links up, 27 of 27 servers reachable\n", output.ReplaceLineEndings("\n"));
        (exit, output, error) = cube.Run("cube", "status");
        Assert.True(exit == 0, error);
        Assert.EndsWith("27 of 27 nodes of 3x3x3 answering\n", output.ReplaceLineEndings("\n"), StringComparison.Ordinal);
    }

    private static long Reachable(LifecycleCube cube, Coordinate node) => cube.Node(node).GetProperty("reachable").GetInt64();

    private static int Pid(LifecycleCube cube, Coordinate node) => cube.Node(node).GetProperty("pid").GetInt32();

    private static Coordinate WhoOwns(LifecycleCube cube, Coordinate asker, string key)
    {
        var answer = cube.Node(asker, "who-owns " + key);
        Assert.Equal("who-owns", answer.GetProperty("command").GetString());
        return Coordinate.Parse(answer.GetProperty("result").GetString()!);
    }

    private static Coordinate Probe(LifecycleCube cube, Coordinate asker, string key) =>
        Coordinate.Parse(cube.Node(asker, "probe " + key).GetProperty("root").GetString()!);

    private static string Text(Coordinate c) => $"{c.X},{c.Y},{c.Z}";
}
