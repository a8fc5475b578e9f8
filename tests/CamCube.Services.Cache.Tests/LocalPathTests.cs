using System.Net;
using System.Text;
using CamCube.Memcached;
using CamCube.Services.Cache.FrontEnd;
using CamCube.Testing;
using Microsoft.Extensions.Logging.Abstractions;

namespace CamCube.Services.Cache.Tests;

/// <summary>
/// The front-end's local path (CacheService.Local): a command whose key is rooted on the front-end's
/// own server is answered on the connection's thread, without the node's loop and without
/// allocating; whenever the root's semantics need the loop (copies to invalidate, a server
/// unreachable) it goes through the loop as before. The deterministic cubes here only run their
/// loop when a test says so, so an answer that comes inline did not use it.
/// </summary>
public class LocalPathTests
{
    private static readonly TorusShape s_cube = new(3, 3, 3);
    private static readonly Coordinate s_origin = new(0, 0, 0);
    private static readonly TimeSpan s_replyTimeout = TimeSpan.FromSeconds(10);

    private static byte[] B(string s) => Encoding.ASCII.GetBytes(s);

    private static InMemoryCube StartCube(TorusShape shape) => InMemoryCube.Start(shape, n => n.Register(new CacheService())).PastStartLease();

    private static CacheService At(InMemoryCube cube, Coordinate c) => cube[c].GetService<CacheService>()!;

    private static MemcachedFrontEnd FrontEndOn(InMemoryCube cube, Coordinate c) =>
        new(At(cube, c), new MemcachedFrontEndOptions { EndPoint = new IPEndPoint(IPAddress.Loopback, 0) }, NullLogger.Instance);

    private static string KeyRootedAt(Coordinate server)
    {
        var keySpace = KeySpace.For(s_cube);
        for (var i = 0; ; i++)
        {
            var key = "local:" + i;
            if (keySpace.GetServersForKey(CacheKeys.MemId(B(key)), 1)[0] == server)
            {
                return key;
            }
        }
    }

    /// <summary>A 3x3x3 cube with a front-end on the origin, where a key rooted there was set to "v1" by the local path.</summary>
    private static (InMemoryCube Cube, string Key, MemcachedFrontEnd FrontEnd, InlinePipeClient Client) StartWithKeyStoredAtOrigin()
    {
        var cube = StartCube(s_cube);
        var key = KeyRootedAt(s_origin);
        var frontEnd = FrontEndOn(cube, s_origin);
        var client = new InlinePipeClient(frontEnd);
        client.Send(B($"set {key} 0 0 2\r\nv1\r\n"));
        Assert.Equal("STORED\r\n", client.TakeReply());
        return (cube, key, frontEnd, client);
    }

    [Fact]
    public async Task CommandsOnKeysRootedHereAreAnsweredWithoutTheLoop()
    {
        var cube = StartCube(new TorusShape(1, 1, 1));
        await using var frontEnd = FrontEndOn(cube, s_origin);
        var client = new InlinePipeClient(frontEnd);

        client.Send("set k 3 0 5\r\nhello\r\n"u8);
        Assert.Equal("STORED\r\n", client.TakeReply());
        client.Send("gets k\r\n"u8);
        var gets = client.TakeReply();
        Assert.StartsWith("VALUE k 3 5 ", gets, StringComparison.Ordinal);
        Assert.EndsWith("\r\nhello\r\nEND\r\n", gets, StringComparison.Ordinal);
        client.Send("add k 0 0 1\r\nx\r\nreplace k 0 0 2\r\nhi\r\nappend k 0 0 1\r\n!\r\nget k\r\n"u8);
        Assert.Equal("NOT_STORED\r\nSTORED\r\nSTORED\r\nVALUE k 0 3\r\nhi!\r\nEND\r\n", client.TakeReply());
        client.Send("delete k\r\nget k\r\ndelete k\r\n"u8);
        Assert.Equal("DELETED\r\nEND\r\nNOT_FOUND\r\n", client.TakeReply());

        client.Send("set a 0 0 1\r\n1\r\nset b 0 0 1 noreply\r\n2\r\nget a b c\r\n"u8);
        Assert.Equal("STORED\r\nVALUE a 0 1\r\n1\r\nVALUE b 0 1\r\n2\r\nEND\r\n", client.TakeReply());
        Assert.Equal(6, At(cube, s_origin).Statistics.SetCommands);
        await client.CloseAsync();
    }

    [Fact]
    public async Task GetAndSetOfAKeyRootedHereAllocateNothingOnceWarm()
    {
        var cube = StartCube(new TorusShape(1, 1, 1));
        await using var frontEnd = FrontEndOn(cube, s_origin);

        // Fixed blocks: the pipes cannot grow a pool during the measurement.
        var client = new InlinePipeClient(frontEnd, new FixedMemoryPool(blockCount: 16, blockBytes: 4096));
        var set = B("set alloc:key 5 0 100\r\n" + new string('v', 100) + "\r\n");
        var get = B("get alloc:key\r\n");
        const int setReplyBytes = 8;
        var getReplyBytes = "VALUE alloc:key 5 100\r\n".Length + 100 + "\r\nEND\r\n".Length;
        for (var i = 0; i < 200; i++)
        {
            client.Send(set);
            client.TakeReplyBytes();
            client.Send(get);
            client.TakeReplyBytes();
        }

        const int rounds = 1_000;
        long replyBytes = 0;
        var runs = 0;
        var allocated = AllocationProbe.OnCurrentThread(() =>
        {
            for (var i = 0; i < rounds; i++)
            {
                client.Send(set);
                replyBytes += client.TakeReplyBytes();
                client.Send(get);
                replyBytes += client.TakeReplyBytes();
            }

            runs++;
        });
        Assert.Equal(runs * rounds * (setReplyBytes + getReplyBytes), replyBytes);
        Assert.Equal(0, allocated);
        await client.CloseAsync();
    }

    [Fact]
    public async Task WriteAtTheRootTakesTheLoopWhileOtherServersHoldCopies()
    {
        var (cube, key, frontEnd, client) = StartWithKeyStoredAtOrigin();
        await using var stopping = frontEnd;

        // Reads from every server fill secondary copies, which the root records.
        foreach (var node in cube.LiveNodes.ToArray())
        {
            var read = At(cube, node.Self).ExecuteAsync(new CacheRequest { Operation = CacheOperation.Get, Key = B(key) });
            Assert.True(cube.RunUntil(() => read.IsCompleted, s_replyTimeout));
        }

        var root = At(cube, s_origin);
        Assert.NotEmpty(root.Store.GetPrimary(B(key))!.CopyHolders!);

        client.Send(B($"set {key} 0 0 2\r\nv2\r\n"));
        Assert.Equal("", client.TakeReply());
        var stored = client.ReadReplyAsync();
        Assert.True(cube.RunUntil(() => root.Store.GetPrimary(B(key))?.CopyHolders is { Count: 0 }, s_replyTimeout));
        Assert.Equal("STORED\r\n", await stored.WaitAsync(s_replyTimeout));
        cube.RunUntilIdle();
        foreach (var node in cube.LiveNodes.ToArray())
        {
            Assert.True(At(cube, node.Self).Store.Get(B(key)) is null or { IsCopy: false }, $"{node.Self} still holds a copy");
        }

        await client.CloseAsync();
    }

    [Fact]
    public async Task KeysRootedHereTakeTheLoopWhileAServerIsUnreachable()
    {
        var (cube, key, frontEnd, client) = StartWithKeyStoredAtOrigin();
        await using var stopping = frontEnd;

        cube.Kill(new Coordinate(2, 2, 2));
        Assert.True(cube.RunUntil(cube.ViewsConverged, s_replyTimeout));
        var service = At(cube, s_origin);
        var answered = service.Statistics.GetHits;
        client.Send(B($"get {key}\r\n"));
        Assert.Equal("", client.TakeReply());
        var value = client.ReadReplyAsync();
        Assert.True(cube.RunUntil(() => service.Statistics.GetHits > answered, s_replyTimeout));
        Assert.Equal($"VALUE {key} 0 2\r\nv1\r\nEND\r\n", await value.WaitAsync(s_replyTimeout));

        cube.Restart(new Coordinate(2, 2, 2));
        Assert.True(cube.RunUntil(cube.ViewsConverged, s_replyTimeout));

        // A new client: the first one's connection went on from the loop's answer on a pool thread, and may not be reading yet.
        var after = new InlinePipeClient(frontEnd);
        after.Send(B($"get {key}\r\n"));
        Assert.Equal($"VALUE {key} 0 2\r\nv1\r\nEND\r\n", after.TakeReply());
        await after.CloseAsync();
        await client.CloseAsync();
    }
}
