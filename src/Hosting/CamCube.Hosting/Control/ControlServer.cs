using System.Net.Sockets;
using System.Text;
using Microsoft.Extensions.Logging;

namespace CamCube.Hosting.Control;

/// <summary>
/// A control socket (a node's, or the cube supervisor's): a Unix socket, mode 0600, on which the
/// `camcube` commands ask for status, pings, kills and stops. One request line in, one JSON line
/// out, per connection; the handler answers and says whether the owner should stop. Bad requests
/// get an error object; the owner is never affected. Like the memcached front-end, it serves at
/// most <see cref="ConnectionsMaxDefault"/> connections at once and closes one that has not sent its
/// line within the request timeout; a request whose asker hangs up is cancelled.
/// </summary>
public sealed class ControlServer : IAsyncDisposable
{
    /// <summary>The longest request line accepted, in bytes.</summary>
    public const int RequestBytesMax = 1_024;

    /// <summary>The most connections served at once; one past it is told so and closed.</summary>
    public const int ConnectionsMaxDefault = 1_024;

    /// <summary>How long a connection may take to send its request line before it is closed.</summary>
    public static readonly TimeSpan RequestTimeoutDefault = TimeSpan.FromSeconds(10);

    private readonly string _path;
    private readonly Func<string, CancellationToken, Task<(string Response, bool Stop)>> _handler;
    private readonly ILogger _logger;
    private readonly int _connectionsMax;
    private readonly TimeSpan _requestTimeout;
    private readonly TimeProvider _time;
    private readonly CancellationTokenSource _stopping = new();
    private Socket? _listener;
    private Task? _acceptLoop;
    private int _connections;

    /// <summary>Initializes a new instance of the <see cref="ControlServer"/> class; <see cref="Start"/> binds it.</summary>
    /// <param name="path">The Unix socket's path.</param>
    /// <param name="handler">Answers one request line, and says whether the owner should stop once the answer is sent.</param>
    /// <param name="logger">Where refused and failed connections are logged.</param>
    /// <param name="connectionsMax">The most connections served at once.</param>
    /// <param name="requestTimeout">How long a connection may take to send its line; null: <see cref="RequestTimeoutDefault"/>.</param>
    /// <param name="time">The clock of the timeouts; null: the system's.</param>
    public ControlServer(
        string path,
        Func<string, CancellationToken, Task<(string Response, bool Stop)>> handler,
        ILogger logger,
        int connectionsMax = ConnectionsMaxDefault,
        TimeSpan? requestTimeout = null,
        TimeProvider? time = null)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(connectionsMax, 1);
        _path = path;
        _handler = handler;
        _logger = logger;
        _connectionsMax = connectionsMax;
        _requestTimeout = requestTimeout ?? RequestTimeoutDefault;
        _time = time ?? TimeProvider.System;
    }

    /// <summary>Raised when a client asks the node to stop.</summary>
    public event Action? StopRequested;

    /// <summary>Gets the number of connections being served now.</summary>
    public int Connections => Volatile.Read(ref _connections);

    /// <summary>Binds the socket (mode 0600, replacing a stale file) and starts serving.</summary>
    public void Start()
    {
        if (File.Exists(_path))
        {
            File.Delete(_path);
        }

        Directory.CreateDirectory(Path.GetDirectoryName(Path.GetFullPath(_path))!);
        _listener = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        _listener.Bind(new UnixDomainSocketEndPoint(_path));
        if (!OperatingSystem.IsWindows())
        {
            // Whoever may connect may stop the node: the owner only, whatever the umask.
            File.SetUnixFileMode(_path, UnixFileMode.UserRead | UnixFileMode.UserWrite);
        }

        _listener.Listen(16);
        _acceptLoop = AcceptLoopAsync(_stopping.Token);
    }

    /// <summary>Stops serving and removes the socket file.</summary>
    /// <returns>A task that completes when the accept loop has ended.</returns>
    public async ValueTask DisposeAsync()
    {
        await _stopping.CancelAsync().ConfigureAwait(false);
        _listener?.Dispose();
        if (_acceptLoop is not null)
        {
            await _acceptLoop.ConfigureAwait(false);
        }

        _stopping.Dispose();
        if (File.Exists(_path))
        {
            File.Delete(_path);
        }
    }

    private async Task AcceptLoopAsync(CancellationToken cancellationToken)
    {
        while (!cancellationToken.IsCancellationRequested)
        {
            Socket client;
            try
            {
                client = await _listener!.AcceptAsync(cancellationToken).ConfigureAwait(false);
            }
            catch (Exception ex) when (ex is OperationCanceledException or ObjectDisposedException or SocketException)
            {
                return;
            }

            if (Interlocked.Increment(ref _connections) > _connectionsMax)
            {
                Interlocked.Decrement(ref _connections);
                Refuse(client);
                continue;
            }

            _ = ServeAsync(client, cancellationToken);
        }
    }

    private void Refuse(Socket client)
    {
        using (client)
        {
            try
            {
                // A short line into an empty socket buffer: this does not block the accept loop.
                client.Blocking = false;
                client.Send(Encoding.UTF8.GetBytes(ControlJson.Error($"busy: {_connectionsMax} control connections are open; try again") + "\n"));
            }
            catch (SocketException)
            {
                // The client is gone already.
            }
        }

        _logger.LogWarning("Refused a control connection: {Max} are open", _connectionsMax);
    }

    private async Task ServeAsync(Socket client, CancellationToken cancellationToken)
    {
        using (client)
        {
            try
            {
                string? line;
                using (var idle = new CancellationTokenSource(_requestTimeout, _time))
                using (var reading = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken, idle.Token))
                {
                    line = await ReadLineAsync(client, reading.Token).ConfigureAwait(false);
                }

                var stop = false;
                string response;
                if (line is null)
                {
                    response = ControlJson.Error($"a request is one line of at most {RequestBytesMax} bytes");
                }
                else
                {
                    using var request = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
                    var watch = CancelWhenClosedAsync(client, request);
                    try
                    {
                        (response, stop) = await _handler(line, request.Token).ConfigureAwait(false);
                    }
                    catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
                    {
                        // The asker closed its side: one that only half-closed still reads this line.
                        response = ControlJson.Error("cancelled: the asker closed its side of the connection");
                    }
                    finally
                    {
                        request.Cancel();
                    }

                    await watch.ConfigureAwait(false);
                }

                // The answer goes out even while the owner stops (the answer to 'down' or 'stop'), within the request timeout.
                using (var sending = new CancellationTokenSource(_requestTimeout, _time))
                {
                    await client.SendAsync(Encoding.UTF8.GetBytes(response + "\n"), sending.Token).ConfigureAwait(false);
                }

                if (stop)
                {
                    StopRequested?.Invoke();
                }
            }
#pragma warning disable CA1031 // One client's failure must not affect the node or other clients.
            catch (Exception ex)
#pragma warning restore CA1031
            {
                _logger.LogDebug(ex, "Control client failed");
            }
            finally
            {
                Interlocked.Decrement(ref _connections);
            }
        }
    }

    /// <summary>Cancels a request when its asker closes the connection (it sends nothing after its line, so a read ends only then).</summary>
    private static async Task CancelWhenClosedAsync(Socket client, CancellationTokenSource request)
    {
        var buffer = new byte[1];
        try
        {
            while (await client.ReceiveAsync(buffer, request.Token).ConfigureAwait(false) > 0)
            {
            }
        }
        catch (Exception ex) when (ex is OperationCanceledException or SocketException or ObjectDisposedException)
        {
            return;
        }

        await request.CancelAsync().ConfigureAwait(false);
    }

    private static async Task<string?> ReadLineAsync(Socket client, CancellationToken cancellationToken)
    {
        var buffer = new byte[RequestBytesMax];
        var filled = 0;
        while (filled < buffer.Length)
        {
            var read = await client.ReceiveAsync(buffer.AsMemory(filled), cancellationToken).ConfigureAwait(false);
            if (read == 0)
            {
                break;
            }

            var newline = Array.IndexOf(buffer, (byte)'\n', filled, read);
            filled += read;
            if (newline >= 0)
            {
                return Encoding.UTF8.GetString(buffer, 0, newline).Trim();
            }
        }

        return filled is > 0 and < RequestBytesMax ? Encoding.UTF8.GetString(buffer, 0, filled).Trim() : null;
    }
}
