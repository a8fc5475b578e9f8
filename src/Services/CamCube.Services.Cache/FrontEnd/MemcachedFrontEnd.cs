using System.IO.Pipelines;
using System.Net;
using CamCube.Memcached;
using Microsoft.Extensions.Logging;

namespace CamCube.Services.Cache.FrontEnd;

/// <summary>
/// A TCP front-end speaking the memcached text protocol to a node's <see cref="CacheService"/>
/// (camcubeos 5.1: clients outside the cube use the cache through it): a
/// <see cref="MemcachedListener"/> whose connections run each command on the cache.
/// </summary>
public sealed class MemcachedFrontEnd : IAsyncDisposable
{
    private readonly MemcachedListener _listener;

    /// <summary>Creates a front-end for <paramref name="service"/>; it listens once started.</summary>
    /// <param name="service">The node's cache.</param>
    /// <param name="options">Where to listen, and the limits.</param>
    /// <param name="logger">Where accept failures and failed connections are logged.</param>
    /// <exception cref="ArgumentNullException">An argument is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException">An option is out of range.</exception>
    public MemcachedFrontEnd(CacheService service, MemcachedFrontEndOptions options, ILogger logger)
    {
        ArgumentNullException.ThrowIfNull(service);
        ArgumentNullException.ThrowIfNull(options);
        _listener = new MemcachedListener(options, (reader, writer, transport) => new MemcachedConnection(reader, writer, transport, service, options), service.Options.ItemSizeMaxBytes, logger);
    }

    /// <summary>Gets where the front-end listens (with the real port when port 0 was asked for).</summary>
    /// <exception cref="InvalidOperationException">The front-end is not started.</exception>
    public IPEndPoint LocalEndPoint => _listener.LocalEndPoint;

    /// <summary>Gets how many clients are connected.</summary>
    public int ConnectionCount => _listener.ConnectionCount;

    /// <summary>Gets how many clients have a receiving thread of their own (<see cref="MemcachedFrontEndOptions.ReceiveThreadsMax"/>).</summary>
    internal int ReceiveThreadsInUse => _listener.ReceiveThreadsInUse;

    /// <summary>Binds and starts accepting clients.</summary>
    /// <exception cref="InvalidOperationException">The front-end was already started.</exception>
    /// <exception cref="System.Net.Sockets.SocketException">The end point cannot be bound.</exception>
    public Task StartAsync(CancellationToken cancellationToken = default) => _listener.StartAsync(cancellationToken);

    /// <summary>Serves one client over an in-process duplex pipe, as if it had connected over TCP (<see cref="MemcachedListener.ServeAsync"/>).</summary>
    /// <exception cref="ArgumentNullException">The pipe is null.</exception>
    /// <exception cref="ObjectDisposedException">The front-end was stopped.</exception>
    public Task ServeAsync(IDuplexPipe client) => _listener.ServeAsync(client);

    /// <summary>Stops accepting, closes every connection and waits for them to end.</summary>
    public Task StopAsync() => _listener.StopAsync();

    /// <inheritdoc/>
    public ValueTask DisposeAsync() => _listener.DisposeAsync();
}
