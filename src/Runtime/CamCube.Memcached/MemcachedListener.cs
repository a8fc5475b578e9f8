using System.IO.Pipelines;
using System.Net;
using System.Net.Sockets;
using Microsoft.Extensions.Logging;

namespace CamCube.Memcached;

/// <summary>
/// Accepts the clients of a memcached text-protocol front-end over TCP and serves each with a
/// connection the service creates (<see cref="MemcachedTextConnection"/>). Listens on loopback by
/// default; no UDP listener (memcached's amplification lesson). Connections are bounded, and a
/// client's bad input or disconnect affects only its own connection.
/// </summary>
public sealed class MemcachedListener : IAsyncDisposable
{
    private static readonly StreamPipeReaderOptions s_readerOptions = new(bufferSize: 16 * 1024, minimumReadSize: 4 * 1024);
    private static readonly StreamPipeWriterOptions s_writerOptions = new(minimumBufferSize: 16 * 1024);

    private readonly MemcachedFrontEndOptions _options;
    private readonly Func<PipeReader, PipeWriter, IDisposable?, MemcachedTextConnection> _connect;
    private readonly long _receivedBytesMax;
    private readonly ILogger _logger;
    private readonly CancellationTokenSource _stopping = new();
    private readonly HashSet<MemcachedTextConnection> _connections = [];
    private readonly object _gate = new();
    private Socket? _listener;
    private Task? _acceptLoop;
    private int _receiveThreads;

    /// <summary>Creates a listener; it listens once started.</summary>
    /// <param name="options">Where to listen, and the limits.</param>
    /// <param name="connect">Creates the service's connection over a client's pipe and its transport (null for an in-process pipe).</param>
    /// <param name="itemSizeMaxBytes">The largest value a command may carry: unread input is bounded to hold one such command.</param>
    /// <param name="logger">Where accept failures and failed connections are logged.</param>
    /// <exception cref="ArgumentNullException">An argument is null.</exception>
    /// <exception cref="ArgumentOutOfRangeException">An option is out of range.</exception>
    public MemcachedListener(MemcachedFrontEndOptions options, Func<PipeReader, PipeWriter, IDisposable?, MemcachedTextConnection> connect, long itemSizeMaxBytes, ILogger logger)
    {
        _options = options ?? throw new ArgumentNullException(nameof(options));
        _connect = connect ?? throw new ArgumentNullException(nameof(connect));
        ArgumentOutOfRangeException.ThrowIfNegative(itemSizeMaxBytes);

        // Unread bytes are bounded, but always hold the largest command with its value, so a connection can always go on.
        _receivedBytesMax = itemSizeMaxBytes + options.LineLengthMax + (64L * 1024);
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
    public int ReceiveThreadsInUse => Math.Min(Volatile.Read(ref _receiveThreads), _options.ReceiveThreadsMax);

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
        return AdmitAndRunAsync(_connect(client.Input, client.Output, null));
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
        MemcachedTextConnection[] open;
        lock (_gate)
        {
            open = [.. _connections];
        }

        foreach (var connection in open)
        {
            connection.Close();
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
                var pipe = new ThreadedSocketPipe(socket, _receivedBytesMax);
                _ = AdmitAndRunThreadedAsync(_connect(pipe.Input, pipe.Output, pipe), pipe);
                continue;
            }

            Interlocked.Decrement(ref _receiveThreads);
            var stream = new NetworkStream(socket, ownsSocket: true);
            _ = AdmitAndRunAsync(_connect(PipeReader.Create(stream, s_readerOptions), PipeWriter.Create(stream, s_writerOptions), stream));
        }
    }

    /// <summary>Runs a connection with a receiving thread of its own; frees the thread's place when it ends.</summary>
    private async Task AdmitAndRunThreadedAsync(MemcachedTextConnection connection, ThreadedSocketPipe threaded)
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
    private async Task AdmitAndRunAsync(MemcachedTextConnection connection)
    {
        bool admitted;
        bool stopping;
        lock (_gate)
        {
            // Checked under the gate, so StopAsync's list holds every connection admitted before it.
            stopping = _stopping.IsCancellationRequested;
            admitted = !stopping && _connections.Count < _options.ConnectionsMax;
            if (admitted)
            {
                _connections.Add(connection);
            }
        }

        if (!admitted)
        {
            await connection.RejectAsync(stopping).ConfigureAwait(false);
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
