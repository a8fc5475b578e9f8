using System.IO.Pipelines;
using System.Net;
using System.Text;
using CamCube.Memcached;
using CamCube.Services.Cache.FrontEnd;
using CamCube.Testing;
using Microsoft.Extensions.Logging.Abstractions;

namespace CamCube.Services.Cache.Tests;

/// <summary>A client that arrives while a memcached front-end stops.</summary>
public class MemcachedListenerStoppingTests
{
    [Fact]
    public async Task ClientArrivingWhileTheFrontEndStopsIsToldItIsShuttingDownNotThatThereAreTooManyConnections()
    {
        var cube = InMemoryCube.Start(new TorusShape(1, 1, 1), n => n.Register(new CacheService())).PastStartLease();
        var service = cube[default].GetService<CacheService>()!;
        var options = new MemcachedFrontEndOptions { EndPoint = new IPEndPoint(IPAddress.Loopback, 0) };
        MemcachedListener? listener = null;
        Task? stopping = null;
        listener = new MemcachedListener(
            options,
            (reader, writer, transport) =>
            {
                // The stop begins after the client was accepted and before it is admitted.
                stopping = listener!.StopAsync();
                return new MemcachedConnection(reader, writer, transport, service, options);
            },
            service.Options.ItemSizeMaxBytes,
            NullLogger.Instance);

        var requests = new Pipe();
        var replies = new Pipe();
        await listener.ServeAsync(new Client(requests.Reader, replies.Writer));

        var reply = await replies.Reader.ReadAsync();
        Assert.Equal("SERVER_ERROR the front-end is shutting down\r\n", Encoding.ASCII.GetString(reply.Buffer));
        Assert.True(reply.IsCompleted);
        Assert.NotNull(stopping);
        await stopping;
        Assert.Equal(0, listener.ConnectionCount);
        await listener.DisposeAsync();
    }

    private sealed class Client(PipeReader input, PipeWriter output) : IDuplexPipe
    {
        public PipeReader Input { get; } = input;

        public PipeWriter Output { get; } = output;
    }
}
