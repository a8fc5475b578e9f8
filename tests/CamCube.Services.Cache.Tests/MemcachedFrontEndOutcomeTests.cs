using System.Text;
using CamCube.Memcached;
using CamCube.Services.Cache.FrontEnd;
using CamCube.Testing;
using Microsoft.Extensions.Logging.Abstractions;

namespace CamCube.Services.Cache.Tests;

/// <summary>
/// The cache's failure outcomes (<see cref="CacheStatus.OutOfMemory"/>, <see cref="CacheStatus.Busy"/>,
/// <see cref="CacheStatus.Timeout"/>) driven through the real front-end of a deterministic cube, and
/// the exact reply line each gets. The cube's loop runs only when a test says so.
/// </summary>
public class MemcachedFrontEndOutcomeTests
{
    private static readonly TorusShape s_cube = new(3, 3, 3);
    private static readonly Coordinate s_origin = new(0, 0, 0);
    private static readonly TimeSpan s_replyTimeout = TimeSpan.FromSeconds(30);

    private static (InMemoryCube Cube, CacheService Service, MemcachedFrontEnd FrontEnd) Start(TorusShape shape, CacheOptions options)
    {
        var cube = InMemoryCube.Start(shape, n => n.Register(new CacheService(options))).PastStartLease(options.CopyLease);
        var service = cube[s_origin].GetService<CacheService>()!;
        return (cube, service, new MemcachedFrontEnd(service, new MemcachedFrontEndOptions(), NullLogger.Instance));
    }

    private static byte[] B(string text) => Encoding.ASCII.GetBytes(text);

    /// <summary>Stops the front-end after the test, pass or fail: the loop runs past every request's timeout first, so no connection waits on an answer that never comes.</summary>
    private static async Task StopAsync(InMemoryCube cube, MemcachedFrontEnd frontEnd)
    {
        cube.RunFor(TimeSpan.FromSeconds(10));
        await frontEnd.DisposeAsync();
    }

    [Fact]
    public async Task ItemLargerThanTheMemoryLimitIsRefusedAsOutOfMemoryWhenRootedHere()
    {
        var (_, _, frontEnd) = Start(new TorusShape(1, 1, 1), new CacheOptions { ItemSizeMaxBytes = 1024, MemoryLimitBytes = 1024 });
        await using var stopping = frontEnd;
        var client = new InlinePipeClient(frontEnd);

        // The value fits the item size limit, but with its key and overhead not the memory.
        client.Send(B($"set oom:big 0 0 1024\r\n{new string('v', 1024)}\r\nget oom:big\r\nset oom:small 0 0 2\r\nok\r\n"));
        Assert.Equal("SERVER_ERROR out of memory storing object\r\nEND\r\nSTORED\r\n", client.TakeReply());
        await client.CloseAsync();
    }

    [Fact]
    public async Task ItemLargerThanTheMemoryLimitIsRefusedAsOutOfMemoryByARemoteRoot()
    {
        var (cube, _, frontEnd) = Start(s_cube, new CacheOptions { ItemSizeMaxBytes = 1024, MemoryLimitBytes = 1024 });
        try
        {
            var client = new InlinePipeClient(frontEnd);
            var key = CubeKeys.RootedAtDistance(s_cube, s_origin, 2, "oom:");
            client.Send(B($"set {key} 0 0 1024\r\n{new string('v', 1024)}\r\n"));
            Assert.Equal("", client.TakeReply());
            var reply = client.ReadReplyAsync();
            cube.RunFor(TimeSpan.FromSeconds(1));
            Assert.Equal("SERVER_ERROR out of memory storing object\r\n", await reply.WaitAsync(s_replyTimeout));
        }
        finally
        {
            await StopAsync(cube, frontEnd);
        }
    }

    [Fact]
    public async Task RequestBeyondThePendingRequestLimitIsAnsweredBusyAtOnce()
    {
        var (cube, _, frontEnd) = Start(s_cube, new CacheOptions { PendingRequestsMax = 1 });
        try
        {
            var first = new InlinePipeClient(frontEnd);
            var second = new InlinePipeClient(frontEnd);
            var key = CubeKeys.RootedAtDistance(s_cube, s_origin, 2, "busy:");

            // The first request holds the node's one place until the loop runs.
            first.Send(B($"get {key}\r\n"));
            Assert.Equal("", first.TakeReply());
            var firstReply = first.ReadReplyAsync();

            var busy = second.ReadReplyAsync();
            second.Send(B($"get {key}\r\n"));
            Assert.Equal("SERVER_ERROR busy\r\n", await busy.WaitAsync(s_replyTimeout));
            busy = second.ReadReplyAsync();
            second.Send(B($"set {key} 0 0 1\r\nx\r\n"));
            Assert.Equal("SERVER_ERROR busy\r\n", await busy.WaitAsync(s_replyTimeout));

            cube.RunFor(TimeSpan.FromSeconds(1));
            Assert.Equal("END\r\n", await firstReply.WaitAsync(s_replyTimeout));

            // The place is free again.
            var stored = second.ReadReplyAsync();
            second.Send(B($"set {key} 0 0 1\r\nx\r\n"));
            cube.RunFor(TimeSpan.FromSeconds(1));
            Assert.Equal("STORED\r\n", await stored.WaitAsync(s_replyTimeout));
        }
        finally
        {
            await StopAsync(cube, frontEnd);
        }
    }

    [Fact]
    public async Task RequestToARootThatDiedUnnoticedTimesOut()
    {
        // Requests time out (100 ms) well before the root's neighbours miss its heartbeats (350 ms) and route around it.
        var options = new CacheOptions { RequestTimeout = TimeSpan.FromMilliseconds(100), SweepPeriod = TimeSpan.FromMilliseconds(10) };
        var (cube, _, frontEnd) = Start(s_cube, options);
        try
        {
            var setter = new InlinePipeClient(frontEnd);
            var getter = new InlinePipeClient(frontEnd);
            var key = CubeKeys.RootedAtDistance(s_cube, s_origin, 2, "timeout:");
            cube.Kill(CubeKeys.RootOf(s_cube, key));

            // Both wait at once: the root's last heartbeat may be 100 ms old, so it is missed 250 ms after the kill at the earliest.
            var stored = setter.ReadReplyAsync();
            setter.Send(B($"set {key} 0 0 1\r\nx\r\n"));
            var value = getter.ReadReplyAsync();
            getter.Send(B($"get {key}\r\n"));
            cube.RunFor(TimeSpan.FromMilliseconds(150));
            Assert.Equal("SERVER_ERROR timeout\r\n", await stored.WaitAsync(s_replyTimeout));
            Assert.Equal("SERVER_ERROR timeout\r\n", await value.WaitAsync(s_replyTimeout));
        }

        finally
        {
            await StopAsync(cube, frontEnd);
        }
    }
}
