using System.IO.Pipelines;
using System.Net;
using System.Net.Sockets;
using Microsoft.Extensions.Logging;

namespace CamCube.Services.Cache.FrontEnd;

/// <summary>
/// A TCP front-end speaking the memcached text protocol to a node's <see cref="CacheService"/>
/// (camcubeos 5.1: clients outside the cube use the cache through it). Listens on loopback by
/// default; no UDP listener (memcached's amplification lesson). Connections are bounded, and a
/// client's bad input or disconnect affects only its own connection.
/// </summary>
public sealed class MemcachedFrontEnd : IAsyncDisposable
{
    private readonly CacheService _service;
    private readonly MemcachedFrontEndOptions _options;
    private readonly ILogger _logger;
    private readonly CancellationTokenSource _stopping = new();
    private readonly HashSet<MemcachedConnection> _connections = [];
    private readonly object _gate = new();
    private Socket? _listener;
    private Task? _acceptLoop;
    private int _receiveThreads;

    /// <summary>Creates a front-end for <paramref name="service"/>; it listens once started.</summary>
    /// <exception cref="ArgumentNullException">An argument is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException">An option is out of range.</exception>
    public MemcachedFrontEnd(CacheService service, MemcachedFrontEndOptions options, ILogger logger)
    {
        _service = service ?? throw new ArgumentNullException(nameof(service));
        _options = options ?? throw new ArgumentNullException(nameof(options));
        _logger = logger ?? throw new ArgumentNullException(nameof(logger));
        _options.Validate();
    }

    /// <summary>Gets where the front-end listens (with the real port when port 0 was asked for).</summary>
    /// <exception cref="InvalidOperationException">The front-end is not started.</exception>
    public IPEndPoint LocalEndPoint => (IPEndPoint?)_listener?.LocalEndPoint ?? throw new InvalidOperationException("The memcached front-end is not started.");

    /// <summary>Gets how many clients are connected.</summary>
    public int ConnectionCount
    {
        get
        {
            lock (_gate)
            {
                return _connections.Count;
            }
        }
    }

    /// <summary>Gets how many clients have a receiving thread of their own (<see cref="MemcachedFrontEndOptions.ReceiveThreadsMax"/>).</summary>
    internal int ReceiveThreadsInUse => Math.Min(Volatile.Read(ref _receiveThreads), _options.ReceiveThreadsMax);

    /// <summary>Binds and starts accepting clients.</summary>
    /// <exception cref="InvalidOperationException">The front-end was already started.</exception>
    /// <exception cref="SocketException">The end point cannot be bound.</exception>
    public Task StartAsync(CancellationToken cancellationToken = default)
    {
        cancellationToken.ThrowIfCancellationRequested();
        if (_listener is not null)
        {
            throw new InvalidOperationException("The memcached front-end is already started.");
        }

        var listener = new Socket(_options.EndPoint.AddressFamily, SocketType.Stream, ProtocolType.Tcp);
        try
        {
            listener.Bind(_options.EndPoint);
            listener.Listen(512);
        }
        catch
        {
            listener.Dispose();
            throw;
        }

        _listener = listener;
        _acceptLoop = AcceptLoopAsync(listener);
        Log.Listening(_logger, LocalEndPoint);
        return Task.CompletedTask;
    }

    /// <summary>
    /// Serves one client over an in-process duplex pipe, as if it had connected over TCP (for clients
    /// in the same process, tests and benchmarks without sockets); counts against
    /// <see cref="MemcachedFrontEndOptions.ConnectionsMax"/>. Needs no <see cref="StartAsync"/>.
    /// Completes when the client sends quit or completes its output, or the front-end stops; the
    /// front-end then completes both halves of <paramref name="client"/>.
    /// </summary>
    /// <exception cref="ArgumentNullException">The pipe is null.</exception>
    /// <exception cref="ObjectDisposedException">The front-end was stopped.</exception>
    public Task ServeAsync(IDuplexPipe client)
    {
        ArgumentNullException.ThrowIfNull(client);
        ObjectDisposedException.ThrowIf(_stopping.IsCancellationRequested, this);
        return AdmitAndRunAsync(new MemcachedConnection(client.Input, client.Output, null, _service, _options));
    }

    /// <summary>Stops accepting, closes every connection and waits for them to end.</summary>
    public async Task StopAsync()
    {
        if (_stopping.IsCancellationRequested)
        {
            return;
        }

        await _stopping.CancelAsync().ConfigureAwait(false);
        _listener?.Dispose();
        MemcachedConnection[] open;
        lock (_gate)
        {
            open = [.. _connections];
        }

        foreach (var connection in open)
        {
            connection.Dispose();
        }

        if (_acceptLoop is not null)
        {
            await _acceptLoop.ConfigureAwait(false);
        }

        foreach (var connection in open)
        {
            await connection.Completion.ConfigureAwait(false);
        }
    }

    /// <inheritdoc/>
    public async ValueTask DisposeAsync()
    {
        await StopAsync().ConfigureAwait(false);
        _stopping.Dispose();
    }

    private async Task AcceptLoopAsync(Socket listener)
    {
        while (!_stopping.IsCancellationRequested)
        {
            Socket socket;
            try
            {
                socket = await listener.AcceptAsync(_stopping.Token).ConfigureAwait(false);
            }
            catch (Exception ex) when (ex is OperationCanceledException or ObjectDisposedException or SocketException)
            {
                if (_stopping.IsCancellationRequested)
                {
                    return;
                }

                Log.AcceptFailed(_logger, ex);
                continue;
            }

            socket.NoDelay = true;
            if (Interlocked.Increment(ref _receiveThreads) <= _options.ReceiveThreadsMax)
            {
                // Unread bytes are bounded, but always hold the largest command with its value, so a connection can always go on.
                var pipe = new ThreadedSocketPipe(socket, _service.Options.ItemSizeMaxBytes + _options.LineLengthMax + (64L * 1024));
                _ = AdmitAndRunThreadedAsync(new MemcachedConnection(pipe.Input, pipe.Output, pipe, _service, _options), pipe);
                continue;
            }

            Interlocked.Decrement(ref _receiveThreads);
            _ = AdmitAndRunAsync(MemcachedConnection.ForSocket(socket, _service, _options));
        }
    }

    /// <summary>Runs a connection with a receiving thread of its own; frees the thread's place when it ends.</summary>
    private async Task AdmitAndRunThreadedAsync(MemcachedConnection connection, ThreadedSocketPipe threaded)
    {
        try
        {
            threaded.Start();
            await AdmitAndRunAsync(connection).ConfigureAwait(false);
        }
        finally
        {
            Interlocked.Decrement(ref _receiveThreads);
        }
    }

    /// <summary>Runs a connection within the limit, or tells the client it is over the limit.</summary>
    private async Task AdmitAndRunAsync(MemcachedConnection connection)
    {
        bool admitted;
        lock (_gate)
        {
            // Checked under the gate, so StopAsync's list holds every connection admitted before it.
            admitted = !_stopping.IsCancellationRequested && _connections.Count < _options.ConnectionsMax;
            if (admitted)
            {
                _connections.Add(connection);
            }
        }

        if (!admitted)
        {
            await connection.RejectAsync().ConfigureAwait(false);
            return;
        }

        try
        {
            await connection.RunAsync().ConfigureAwait(false);
        }
#pragma warning disable CA1031 // One client's failure must never reach the others or the node.
        catch (Exception ex)
#pragma warning restore CA1031
        {
            Log.ConnectionFailed(_logger, ex);
        }
        finally
        {
            lock (_gate)
            {
                _connections.Remove(connection);
            }
        }
    }
}
