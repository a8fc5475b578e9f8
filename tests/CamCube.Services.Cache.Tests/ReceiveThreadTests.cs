using System.Net;
using CamCube.Memcached;
using CamCube.Services.Cache.FrontEnd;
using CamCube.Testing;
using Microsoft.Extensions.Logging.Abstractions;

namespace CamCube.Services.Cache.Tests;

/// <summary>
/// Clients with a receiving thread of their own (memcached's worker-thread model) and clients
/// beyond <see cref="MemcachedFrontEndOptions.ReceiveThreadsMax"/>, served with asynchronous
/// sockets, on a real-time 1-node cube over loopback TCP.
/// </summary>
[Collection(RealTimeGroup.Name)]
public class ReceiveThreadTests
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromSeconds(30);

    private static async Task<(RealTimeCube Cube, MemcachedFrontEnd FrontEnd)> StartAsync(int receiveThreadsMax)
    {
        var cube = await RealTimeCube.StartAsync(new TorusShape(1, 1, 1), n => n.Register(new CacheService()), s_timeout);
        var service = await cube.InvokeAsync(() => cube[new Coordinate(0, 0, 0)].GetService<CacheService>()!);
        var options = new MemcachedFrontEndOptions { EndPoint = new IPEndPoint(IPAddress.Loopback, 0), ReceiveThreadsMax = receiveThreadsMax };
        var frontEnd = new MemcachedFrontEnd(service, options, NullLogger.Instance);
        await frontEnd.StartAsync();
        return (cube, frontEnd);
    }

    [Fact]
    public async Task ThreadedAndAsynchronousClientsBothCarryTheLargestValue()
    {
        var (cube, frontEnd) = await StartAsync(receiveThreadsMax: 1);
        using var stopCube = cube;
        await using var stopFrontEnd = frontEnd;
        await using var threaded = await TextClient.ConnectAsync(frontEnd.LocalEndPoint);
        Assert.StartsWith("VERSION ", await threaded.AskAsync("version\r\n"), StringComparison.Ordinal);
        await using var asynchronous = await TextClient.ConnectAsync(frontEnd.LocalEndPoint);
        Assert.StartsWith("VERSION ", await asynchronous.AskAsync("version\r\n"), StringComparison.Ordinal);
        Assert.Equal(1, frontEnd.ReceiveThreadsInUse);
        Assert.Equal(2, frontEnd.ConnectionCount);

        // A whole item of the largest size waits unread while its line is parsed: the bound on unread bytes must hold it.
        var value = new string('m', 1024 * 1024);
        foreach (var (client, key) in new[] { (threaded, "rt:threaded"), (asynchronous, "rt:async") })
        {
            Assert.Equal("STORED\r\n", await client.AskAsync($"set {key} 0 0 {value.Length}\r\n{value}\r\n"));
            Assert.Equal($"VALUE {key} 0 {value.Length}\r\n{value}\r\nEND\r\n", await client.AskAsync($"get {key}\r\n", "END\r\n"));
        }
    }

    [Fact]
    public async Task StoppingTheFrontEndClosesAnIdleThreadedClient()
    {
        var (cube, frontEnd) = await StartAsync(receiveThreadsMax: 4);
        using var stopCube = cube;
        await using var client = await TextClient.ConnectAsync(frontEnd.LocalEndPoint);
        Assert.Equal("STORED\r\n", await client.AskAsync("set rt:k 0 0 1\r\nx\r\n"));
        Assert.Equal(1, frontEnd.ReceiveThreadsInUse);

        await frontEnd.StopAsync().WaitAsync(s_timeout);
        Assert.True(await client.IsClosedByServerAsync());
        Assert.Equal(0, frontEnd.ConnectionCount);
    }
}
