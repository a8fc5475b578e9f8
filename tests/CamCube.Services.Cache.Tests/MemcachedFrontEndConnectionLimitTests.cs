using System.Net;
using CamCube.Memcached;
using CamCube.Services.Cache.FrontEnd;
using CamCube.Testing;
using Microsoft.Extensions.Logging.Abstractions;

namespace CamCube.Services.Cache.Tests;

/// <summary>The front-end's bound on connected clients (<see cref="MemcachedFrontEndOptions.ConnectionsMax"/>), over real sockets.</summary>
public class MemcachedFrontEndConnectionLimitTests
{
    [Theory]
    [InlineData(4)]
    [InlineData(0)]
    public async Task ClientPastTheLimitIsToldAndClosedWhileEarlierOnesWorkOn(int receiveThreads)
    {
        var cube = InMemoryCube.Start(new TorusShape(1, 1, 1), n => n.Register(new CacheService())).PastStartLease();
        var options = new MemcachedFrontEndOptions { EndPoint = new IPEndPoint(IPAddress.Loopback, 0), ConnectionsMax = 2, ReceiveThreadsMax = receiveThreads };
        await using var frontEnd = new MemcachedFrontEnd(cube[default].GetService<CacheService>()!, options, NullLogger.Instance);
        await frontEnd.StartAsync();

        // Answered, so admitted.
        await using var a = await TextClient.ConnectAsync(frontEnd.LocalEndPoint);
        Assert.Equal("STORED\r\n", await a.AskAsync("set limit:k 0 0 1\r\na\r\n"));
        await using var b = await TextClient.ConnectAsync(frontEnd.LocalEndPoint);
        Assert.Equal("VALUE limit:k 0 1\r\na\r\nEND\r\n", await b.AskAsync("get limit:k\r\n", "END\r\n"));

        Assert.Equal(("SERVER_ERROR Too many open connections\r\n", true), await RawExchange.SendAsync(frontEnd.LocalEndPoint, "get limit:k\r\n"u8.ToArray(), halfClose: false));
        Assert.Equal(2, frontEnd.ConnectionCount);
        Assert.Equal("STORED\r\n", await a.AskAsync("set limit:k 0 0 1\r\nb\r\n"));
        Assert.Equal("VALUE limit:k 0 1\r\nb\r\nEND\r\n", await b.AskAsync("get limit:k\r\n", "END\r\n"));

        // A client that leaves frees its place for the next, once the front-end has seen it go.
        await a.SendAsync("quit\r\n");
        Assert.True(await a.IsClosedByServerAsync());
        var reply = "";
        for (var attempt = 0; attempt < 1_000 && !reply.StartsWith("END", StringComparison.Ordinal); attempt++)
        {
            (reply, _) = await RawExchange.SendAsync(frontEnd.LocalEndPoint, "get limit:none\r\n"u8.ToArray(), halfClose: true);
        }

        Assert.Equal("END\r\n", reply);
    }
}
