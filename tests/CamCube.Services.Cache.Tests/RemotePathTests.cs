using System.Text;
using CamCube.Memcached;
using CamCube.Runtime;
using CamCube.Services.Cache.FrontEnd;
using CamCube.Testing;
using Microsoft.Extensions.Logging.Abstractions;

namespace CamCube.Services.Cache.Tests;

/// <summary>
/// The front-end's path through the node's loop, for keys rooted on another server: the connection's
/// reusable requests (<see cref="FrontEnd.FrontEndRequest"/>) carry a get or set to the key's root and back
/// without allocating in steady state, on any of the threads involved (the connection's, the loop's,
/// the thread pool's), and answer every command as before.
/// </summary>
[Collection(QuietProcessGroup.Name)]
public sealed class RemotePathTests : IAsyncLifetime
{
    private static readonly TorusShape s_shape = new(3, 3, 3);
    private static readonly Coordinate s_frontEndAt = new(0, 0, 0);
    private static readonly TimeSpan s_replyTimeout = TimeSpan.FromSeconds(30);
    private RealTimeCube _cube = null!;
    private CacheService _service = null!;

    public async Task InitializeAsync()
    {
        // A send queue's rings keep entries of packets that left by another link until they reach twice
        // the queue's limit (then they are compacted), growing once on the way; with a small limit the
        // warm-up takes them there, and what is measured afterwards is the cache's path alone.
        var options = new InMemoryCubeOptions { NodeOptions = () => new NodeOptions { PublishMetrics = false, SendQueuePacketsMax = 128 } };
        _cube = await RealTimeCube.StartAsync(s_shape, n => n.Register(new CacheService()), TimeSpan.FromSeconds(60), options);
        _service = await _cube.InvokeAsync(() => _cube[s_frontEndAt].GetService<CacheService>()!);
    }

    public Task DisposeAsync()
    {
        _cube.Dispose();
        return Task.CompletedTask;
    }

    [Fact]
    public async Task GetsAndSetsOfAKeyRootedElsewhereAllocateNothingOnceWarm()
    {
        await using var frontEnd = new MemcachedFrontEnd(_service, new MemcachedFrontEndOptions(), NullLogger.Instance);
        var client = new InlinePipeClient(frontEnd, new FixedMemoryPool(blockCount: 16, blockBytes: 4096));
        var key = KeyRootedAtDistance(2);
        var set = Encoding.ASCII.GetBytes($"set {key} 5 0 100\r\n{new string('v', 100)}\r\n");
        var get = Encoding.ASCII.GetBytes($"get {key}\r\n");
        const int setReplyBytes = 8;
        var getReplyBytes = $"VALUE {key} 5 100\r\n".Length + 100 + "\r\nEND\r\n".Length;

        // Warm every pool and queue on the way, for sets and gets together and apart; the last get
        // fills the hot-spot copy that later gets hit.
        for (var i = 0; i < 300; i++)
        {
            Exchanges(client, set, setReplyBytes, 1);
            Exchanges(client, get, getReplyBytes, 1);
        }

        Exchanges(client, set, setReplyBytes, 1_000);
        Exchanges(client, get, getReplyBytes, 1_000);

        const int rounds = 1_000;
        var getsBefore = _service.Statistics.GetCommands;
        var sets = LeastOfRuns(() => Exchanges(client, set, setReplyBytes, rounds));
        var gets = LeastOfRuns(() => Exchanges(client, get, getReplyBytes, rounds));

        // Counted by the requester's loop: they went through it (a key rooted here would not).
        Assert.Equal(getsBefore + (5 * rounds), _service.Statistics.GetCommands);
        Assert.Equal((0, 0), (sets.Client, sets.Loop));
        Assert.Equal((0, 0), (gets.Client, gets.Loop));

        // The process count also holds the test host's own work, about 2 KB a second here, and
        // whatever a loaded machine adds (a thread the pool starts); the least of five runs takes
        // out spikes. An allocation per request would add at least 24 bytes a request in every run.
        Assert.InRange(sets.Process, 0, rounds * 8);
        Assert.InRange(gets.Process, 0, rounds * 8);
        await client.CloseAsync();
    }

    [Fact]
    public async Task AnswersThroughTheLoopComeInOrderAndRequestsAreReusedAcrossValueSizes()
    {
        await using var frontEnd = new MemcachedFrontEnd(_service, new MemcachedFrontEndOptions(), NullLogger.Instance);
        var client = new InlinePipeClient(frontEnd);
        var near = KeyRootedAtDistance(1);
        var far = KeyRootedAtDistance(3);
        var large = new string('L', 40_000);
        client.Send(Encoding.ASCII.GetBytes($"set {far} 7 0 {large.Length}\r\n{large}\r\nset {near} 3 0 2\r\nhi\r\n"));
        Assert.Equal("STORED\r\nSTORED\r\n", await ReadAsync(client, "STORED\r\nSTORED\r\n".Length));

        // A large answer (its own buffer), then small ones again in the same requests, a miss among them.
        client.Send(Encoding.ASCII.GetBytes($"get {far} remote:none {near}\r\n"));
        var expected = $"VALUE {far} 7 {large.Length}\r\n{large}\r\nVALUE {near} 3 2\r\nhi\r\nEND\r\n";
        Assert.Equal(expected, await ReadAsync(client, expected.Length));
        client.Send(Encoding.ASCII.GetBytes($"get {near} {near}\r\nincr {near} 1\r\nset {far} 0 0 1\r\nx\r\nget {far}\r\n"));
        expected = $"VALUE {near} 3 2\r\nhi\r\nVALUE {near} 3 2\r\nhi\r\nEND\r\n"
            + "CLIENT_ERROR cannot increment or decrement non-numeric value\r\nSTORED\r\n"
            + $"VALUE {far} 0 1\r\nx\r\nEND\r\n";
        Assert.Equal(expected, await ReadAsync(client, expected.Length));
        await client.CloseAsync();
    }

    private static void Exchanges(InlinePipeClient client, byte[] request, int replyBytes, int count)
    {
        for (var i = 0; i < count; i++)
        {
            client.Send(request);
            client.WaitForReplyBytes(replyBytes, s_replyTimeout);
        }
    }

    /// <summary>
    /// Runs <paramref name="work"/> five times; returns the least bytes allocated in a run by the whole
    /// process, by the calling thread (the client's, where the connection parses and sends) and by
    /// the cube's loop thread. The thread pool's share (the connection answering) shows only in the first.
    /// </summary>
    private (long Process, long Client, long Loop) LeastOfRuns(Action work)
    {
        long LoopCount() => _cube.InvokeAsync(GC.GetAllocatedBytesForCurrentThread).GetAwaiter().GetResult();

        (long Process, long Client, long Loop) least = (long.MaxValue, long.MaxValue, long.MaxValue);
        for (var run = 0; run < 5; run++)
        {
            var loop = LoopCount();
            var client = GC.GetAllocatedBytesForCurrentThread();
            var process = GC.GetTotalAllocatedBytes(precise: true);
            work();
            process = GC.GetTotalAllocatedBytes(precise: true) - process;
            client = GC.GetAllocatedBytesForCurrentThread() - client;
            loop = LoopCount() - loop;
            least = (Math.Min(least.Process, process), Math.Min(least.Client, client), Math.Min(least.Loop, loop));
        }

        return least;
    }

    private static async Task<string> ReadAsync(InlinePipeClient client, int length)
    {
        var text = new StringBuilder();
        while (text.Length < length)
        {
            text.Append(await client.ReadReplyAsync().WaitAsync(s_replyTimeout));
        }

        return text.ToString();
    }

    private static string KeyRootedAtDistance(int distance)
    {
        var keySpace = KeySpace.For(s_shape);
        for (var i = 0; ; i++)
        {
            var key = "remote:" + i;
            var root = keySpace.GetServersForKey(CacheKeys.MemId(Encoding.ASCII.GetBytes(key)), 1)[0];
            if (s_shape.Distance(root, s_frontEndAt) == distance)
            {
                return key;
            }
        }
    }
}
