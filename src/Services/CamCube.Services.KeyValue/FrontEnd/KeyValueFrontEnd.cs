using System.IO.Pipelines;
using System.Net;
using CamCube.Memcached;
using Microsoft.Extensions.Logging;

namespace CamCube.Services.KeyValue.FrontEnd;

/// <summary>
/// The store's own memcached text-protocol front-end (port 11311 + node index by default), so every
/// memcached client is a key-value client: set, add, replace, append, prepend, cas, get, gets, gat,
/// gats, delete, incr, decr, touch, flush_all, stats, version, verbosity and quit, with the cas
/// unique being the store's version. A key is the SHA-1 of the memcached key's bytes, as the
/// cache's memId (memId = objId). What each command does to the store, and how flags, expiry and
/// flush_all are kept, is in MemcachedItemFormat.md beside this file.
/// </summary>
public sealed class KeyValueFrontEnd : IAsyncDisposable
{
    private readonly MemcachedListener _listener;
    private readonly KeyValueCommands _commands;

    /// <summary>Creates a front-end for <paramref name="store"/>; it listens once started.</summary>
    /// <param name="store">The node's store.</param>
    /// <param name="options">Where to listen, and the limits.</param>
    /// <param name="logger">Where accept failures and failed connections are logged.</param>
    /// <exception cref="ArgumentNullException">An argument is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException">An option is out of range.</exception>
    public KeyValueFrontEnd(IKeyValueStore store, KeyValueFrontEndOptions options, ILogger logger)
    {
        ArgumentNullException.ThrowIfNull(store);
        ArgumentNullException.ThrowIfNull(options);
        options.Validate();
        _commands = new KeyValueCommands(store, options);
        _listener = new MemcachedListener(options.Connections, (reader, writer, transport) => new KeyValueConnection(reader, writer, transport, _commands, options), options.ItemSizeMaxBytes, logger);
    }

    /// <summary>
    /// Reads an item as the front-end stores it (MemcachedItemFormat.md), for a reader beside the
    /// store such as the cache (memId = objId): its data and flags, unless it has expired. A flush_all
    /// is not seen here; a value without the header is all data, flags 0.
    /// </summary>
    /// <param name="stored">The stored value.</param>
    /// <param name="now">The current time.</param>
    /// <param name="data">The client's bytes.</param>
    /// <param name="flags">The client's flags.</param>
    /// <returns>False when the item has expired.</returns>
    public static bool TryReadItem(ReadOnlyMemory<byte> stored, DateTimeOffset now, out ReadOnlyMemory<byte> data, out uint flags)
    {
        var item = MemcachedItem.Decode(stored);
        (data, flags) = (item.Data, item.Flags);
        return !item.IsGone(now, default);
    }

    /// <summary>Gets where the front-end listens (with the real port when port 0 was asked for).</summary>
    /// <exception cref="InvalidOperationException">The front-end is not started.</exception>
    public IPEndPoint LocalEndPoint => _listener.LocalEndPoint;

    /// <summary>Gets how many clients are connected.</summary>
    public int ConnectionCount => _listener.ConnectionCount;

    /// <summary>Gets what the clients asked.</summary>
    public KeyValueFrontEndStatistics Statistics => _commands.Statistics;

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
