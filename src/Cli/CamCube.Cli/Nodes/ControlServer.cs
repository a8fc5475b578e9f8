using System.Net.Sockets;
using System.Text;
using Microsoft.Extensions.Logging;

namespace CamCube.Cli.Nodes;

/// <summary>
/// A control socket (a node's, or the cube supervisor's): a Unix socket on which the `camcube`
/// commands ask for status, pings, kills and stops. One request line in, one JSON line out, per
/// connection; the handler answers and says whether the owner should stop. Bad requests get an
/// error object; the owner is never affected.
/// </summary>
internal sealed class ControlServer(string path, Func<string, CancellationToken, Task<(string Response, bool Stop)>> handler, ILogger logger) : IAsyncDisposable
{
    /// <summary>The longest request line accepted, in bytes.</summary>
    public const int RequestBytesMax = 1_024;

    private readonly CancellationTokenSource _stopping = new();
    private Socket? _listener;
    private Task? _acceptLoop;

    /// <summary>Raised when a client asks the node to stop.</summary>
    public event Action? StopRequested;

    public void Start()
    {
        if (File.Exists(path))
        {
            File.Delete(path);
        }

        Directory.CreateDirectory(Path.GetDirectoryName(Path.GetFullPath(path))!);
        _listener = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        _listener.Bind(new UnixDomainSocketEndPoint(path));
        _listener.Listen(16);
        _acceptLoop = AcceptLoopAsync(_stopping.Token);
    }

    public async ValueTask DisposeAsync()
    {
        await _stopping.CancelAsync().ConfigureAwait(false);
        _listener?.Dispose();
        if (_acceptLoop is not null)
        {
            await _acceptLoop.ConfigureAwait(false);
        }

        _stopping.Dispose();
        if (File.Exists(path))
        {
            File.Delete(path);
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

            _ = ServeAsync(client, cancellationToken);
        }
    }

    private async Task ServeAsync(Socket client, CancellationToken cancellationToken)
    {
        using (client)
        {
            try
            {
                var line = await ReadLineAsync(client, cancellationToken).ConfigureAwait(false);
                var stop = false;
                string response;
                if (line is null)
                {
                    response = ControlResponses.Error($"a request is one line of at most {RequestBytesMax} bytes");
                }
                else
                {
                    (response, stop) = await handler(line, cancellationToken).ConfigureAwait(false);
                }

                await client.SendAsync(Encoding.UTF8.GetBytes(response + "\n"), cancellationToken).ConfigureAwait(false);
                if (stop)
                {
                    StopRequested?.Invoke();
                }
            }
#pragma warning disable CA1031 // One client's failure must not affect the node or other clients.
            catch (Exception ex)
#pragma warning restore CA1031
            {
                logger.LogDebug(ex, "Control client failed");
            }
        }
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
