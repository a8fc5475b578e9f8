namespace CamCube.Integration.Tests;

/// <summary>`cube faults`, `cube cut`, `cube restore` and `cube kill` on a running cube of node processes.</summary>
[Collection(LifecycleCubes.Name)]
public sealed class CubeDrillTests(DrillCubeFixture fixture) : IClassFixture<DrillCubeFixture>
{
    private static readonly TimeSpan s_patience = TimeSpan.FromSeconds(30);
    private static readonly Coordinate[] s_nodes = [new(0, 0, 0), new(1, 0, 0), new(2, 0, 0)];

    private LifecycleCube Cube => fixture.Cube;

    private int LinksUp(Coordinate node) => Cube.Node(node).GetProperty("linksUp").GetInt32();

    private bool AllLinksUp() => s_nodes.All(n => LinksUp(n) == 2);

    [Fact]
    public void CutAndRestoreTakeALinkWithoutDoubleDashAndTheNodeSeesItGoAndComeBack()
    {
        var node = new Coordinate(0, 0, 0);
        Assert.True(Wait.Until(AllLinksUp, s_patience));

        var (exit, output, error) = Cube.Run("cube", "cut", "0,0,0", "-x");
        Assert.True(exit == 0, error);
        Assert.Equal("cut link -x of node (0,0,0)\n", output.ReplaceLineEndings("\n"));
        Assert.True(Wait.Until(() => LinksUp(node) == 1, s_patience));
        Assert.Equal(["+x"], Cube.Node(node).GetProperty("links").EnumerateArray().Select(l => l.GetString()));

        (exit, output, error) = Cube.Run("cube", "restore", "0,0,0", "-x");
        Assert.True(exit == 0, error);
        Assert.Equal("restored link -x of node (0,0,0)\n", output.ReplaceLineEndings("\n"));
        Assert.True(Wait.Until(() => LinksUp(node) == 2, s_patience));
    }

    [Fact]
    public void CutAllCutsTheLinkOfEveryNodeAndRestoreAllRepairsThem()
    {
        Assert.True(Wait.Until(AllLinksUp, s_patience));
        var (exit, output, error) = Cube.Run("cube", "cut", "all", "+x");
        Assert.True(exit == 0, error);
        Assert.Equal("cut link +x of 3 nodes\n", output.ReplaceLineEndings("\n"));

        // Every cable is cut at one end: no link stays up anywhere.
        Assert.True(Wait.Until(() => s_nodes.All(n => LinksUp(n) == 0), s_patience));

        (exit, output, error) = Cube.Run("cube", "restore", "all", "+x");
        Assert.True(exit == 0, error);
        Assert.Equal("restored link +x of 3 nodes\n", output.ReplaceLineEndings("\n"));
        Assert.True(Wait.Until(AllLinksUp, s_patience));
    }

    [Fact]
    public void FaultsDropFramesWhileSetAndStopWhenCleared()
    {
        var node = new Coordinate(1, 0, 0);
        long Dropped() => Cube.Node(node).GetProperty("faults").GetProperty("dropped").GetInt64();
        var (exit, output, error) = Cube.Run("cube", "faults", "1,0,0", "--drop", "1");
        Assert.True(exit == 0, error);
        Assert.Equal("faults set on node (1,0,0): drop=1\n", output.ReplaceLineEndings("\n"));

        // Heartbeats keep flowing, and every one this node sends or receives is dropped.
        var before = Dropped();
        Assert.True(Wait.Until(() => Dropped() > before + 10, s_patience));
        Assert.True(Wait.Until(() => LinksUp(node) == 0, s_patience));

        (exit, output, error) = Cube.Run("cube", "faults", "all");
        Assert.True(exit == 0, error);
        Assert.Equal("faults set on 3 nodes: none\n", output.ReplaceLineEndings("\n"));
        Assert.True(Wait.Until(AllLinksUp, s_patience));
        var cleared = Dropped();
        Assert.Equal(2, LinksUp(node));
        Assert.Equal(0, Cube.Node(node, "pingall 2000").GetProperty("lost").GetArrayLength());
        Assert.Equal(cleared, Dropped());
    }

    [Fact]
    public void FaultsOnAllReachTheLiveNodesAndNameTheKilledOneWhenANodeIsKilled()
    {
        var live = new Coordinate(2, 0, 0);
        long Dropped() => Cube.Node(live).GetProperty("faults").GetProperty("dropped").GetInt64();
        Assert.Equal(0, Cube.Run("cube", "kill", "1,0,0").Exit);
        try
        {
            var before = Dropped();
            var (exit, output, error) = Cube.Run("cube", "faults", "all", "--drop", "1");
            Assert.Equal(1, exit);
            Assert.Equal("faults set on 2 of 3 nodes: drop=1\n", output.ReplaceLineEndings("\n"));
            Assert.Equal("camcube cube faults: node (1,0,0) does not answer; is it killed? ('camcube cube status')\n", error.ReplaceLineEndings("\n"));

            // (2,0,0) comes after the killed node in 'all': it got the faults too.
            Assert.True(Wait.Until(() => Dropped() > before + 10, s_patience));
        }
        finally
        {
            var (started, _, startError) = Cube.Run("cube", "start", "1,0,0");
            Assert.True(started == 0, startError);
            var (cleared, _, clearError) = Cube.Run("cube", "faults", "all");
            Assert.True(cleared == 0, clearError);
        }

        Assert.True(Wait.Until(AllLinksUp, s_patience));
    }

    [Fact]
    public void NodeRefusesAFaultDelayBeyondTheMaximumWhenAskedDirectly()
    {
        var answer = Cube.Node(new Coordinate(0, 0, 0), "faults delay-ms=1e15");
        Assert.Equal("delay-ms 1e15 is more than 60000 milliseconds", answer.GetProperty("error").GetString());
        Assert.True(Cube.Node(new Coordinate(0, 0, 0)).GetProperty("running").GetBoolean());
    }

    [Fact]
    public void KillingAKilledNodeFailsAndSaysSo()
    {
        var (exit, output, error) = Cube.Run("cube", "kill", "2,0,0");
        Assert.True(exit == 0, error);
        Assert.Equal("killed node (2,0,0)\n", output.ReplaceLineEndings("\n"));
        try
        {
            (exit, output, error) = Cube.Run("cube", "kill", "2,0,0");
            Assert.Equal(1, exit);
            Assert.Equal("", output);
            Assert.Equal("camcube cube kill: node 2,0,0 is not running (killed already, or it stopped); 'camcube cube start 2,0,0' starts it\n", error.ReplaceLineEndings("\n"));
        }
        finally
        {
            (exit, _, error) = Cube.Run("cube", "start", "2,0,0");
            Assert.True(exit == 0, error);
        }

        Assert.True(Wait.Until(AllLinksUp, s_patience));
        Assert.Equal(Cube.NodePids()[2], Cube.Node(new Coordinate(2, 0, 0)).GetProperty("pid").GetInt32());
    }

    [Fact]
    public async Task PingingStopsWhenTheAskerHangsUp()
    {
        var node = new Coordinate(0, 0, 0);
        Assert.True(Wait.Until(AllLinksUp, s_patience));
        long Sent() => Cube.Node(node).GetProperty("framesSent").GetInt64();
        var before = Sent();
        using (var asker = new System.Net.Sockets.Socket(System.Net.Sockets.AddressFamily.Unix, System.Net.Sockets.SocketType.Stream, System.Net.Sockets.ProtocolType.Unspecified))
        {
            await asker.ConnectAsync(new System.Net.Sockets.UnixDomainSocketEndPoint(Cube.Layout.NodeSocket(node)));
            await asker.SendAsync("ping 2,0,0 1000000 2000\n"u8.ToArray());

            // A million pings take minutes; the first thousand show they are under way.
            Assert.True(Wait.Until(() => Sent() > before + 1_000, s_patience));
        }

        // Hung up (as Ctrl-C on 'camcube ping' does): soon only heartbeats leave (20 a second on
        // two links), where pings left thousands a second. Measured over windows of at least 40 ms.
        var (last, lastAt) = (Sent(), TimeProvider.System.GetTimestamp());
        Assert.True(Wait.Until(
            () =>
            {
                var elapsed = TimeProvider.System.GetElapsedTime(lastAt);
                if (elapsed < TimeSpan.FromMilliseconds(40))
                {
                    return false;
                }

                var now = Sent();
                var quiet = (now - last) / elapsed.TotalSeconds < 200;
                (last, lastAt) = (now, TimeProvider.System.GetTimestamp());
                return quiet;
            },
            s_patience));
    }

    [Fact]
    public void StartOfANodeThatCannotReadTheKeyFailsAndSaysWhy()
    {
        Assert.Equal(0, Cube.Run("cube", "kill", "1,0,0").Exit);
        var key = File.ReadAllBytes(Cube.Layout.KeyFile);
        File.Delete(Cube.Layout.KeyFile);
        try
        {
            var (exit, output, error) = Cube.Run("cube", "start", "1,0,0");
            Assert.Equal(1, exit);
            Assert.Equal("", output);
            Assert.Equal($"camcube cube start: node (1,0,0) exited while starting: camcube node: CamCube:KeyFile: '{Cube.Layout.KeyFile}' does not exist.", error.ReplaceLineEndings("\n").Split(" Provide a cluster key")[0]);
            Assert.Single(error.TrimEnd('\n').Split('\n'));
        }
        finally
        {
            File.WriteAllBytes(Cube.Layout.KeyFile, key);
        }

        var (started, _, startError) = Cube.Run("cube", "start", "1,0,0");
        Assert.True(started == 0, startError);
        Assert.True(Wait.Until(AllLinksUp, s_patience));
    }
}
