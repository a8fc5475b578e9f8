using System.Net;
using System.Net.Sockets;
using System.Text;

namespace CamCube.Testing;

/// <summary>A raw text-protocol client for tests (memcached's, the control socket's): send bytes, read until a reply ends, each read within 10 seconds.</summary>
public sealed class TextClient : IAsyncDisposable
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromSeconds(10);
    private readonly Socket _socket = new(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
    private readonly StringBuilder _received = new();
    private readonly byte[] _buffer = new byte[64 * 1024];

    /// <summary>Connects to a server over TCP.</summary>
    /// <param name="endPoint">Where the server listens.</param>
    /// <returns>The connected client.</returns>
    public static async Task<TextClient> ConnectAsync(IPEndPoint endPoint)
    {
        ArgumentNullException.ThrowIfNull(endPoint);
        var client = new TextClient();
        await client._socket.ConnectAsync(endPoint).ConfigureAwait(false);
        return client;
    }

    /// <summary>Sends text, one byte per character (Latin-1).</summary>
    /// <param name="text">The text.</param>
    /// <returns>A task that completes once sent.</returns>
    public Task SendAsync(string text) => SendAsync(Encoding.Latin1.GetBytes(text));

    /// <summary>Sends bytes.</summary>
    /// <param name="bytes">The bytes.</param>
    /// <returns>A task that completes once sent.</returns>
    public async Task SendAsync(byte[] bytes) => await _socket.SendAsync(bytes, SocketFlags.None).ConfigureAwait(false);

    /// <summary>Sends <paramref name="text"/> and returns the reply up to and including <paramref name="end"/>.</summary>
    /// <param name="text">The request.</param>
    /// <param name="end">What ends the reply.</param>
    /// <returns>The reply.</returns>
    public async Task<string> AskAsync(string text, string end = "\r\n")
    {
        await SendAsync(text).ConfigureAwait(false);
        return await ReadUntilAsync(end).ConfigureAwait(false);
    }

    /// <summary>Reads up to and including <paramref name="end"/>; what follows is kept for the next read.</summary>
    /// <param name="end">What ends the reply.</param>
    /// <returns>The reply.</returns>
    /// <exception cref="IOException">The server closed the connection first.</exception>
    /// <exception cref="OperationCanceledException">Nothing arrived for 10 seconds.</exception>
    public async Task<string> ReadUntilAsync(string end)
    {
        using var timeout = new CancellationTokenSource(s_timeout);
        while (true)
        {
            var text = _received.ToString();
            var at = text.IndexOf(end, StringComparison.Ordinal);
            if (at >= 0)
            {
                _received.Remove(0, at + end.Length);
                return text[..(at + end.Length)];
            }

            var n = await _socket.ReceiveAsync(_buffer, SocketFlags.None, timeout.Token).ConfigureAwait(false);
            if (n == 0)
            {
                throw new IOException($"The server closed the connection; received so far: '{text}'");
            }

            _received.Append(Encoding.Latin1.GetString(_buffer, 0, n));
        }
    }

    /// <summary>Returns true once the server has closed the connection (reads return 0), within the timeout.</summary>
    /// <returns>Whether the server closed the connection.</returns>
    public async Task<bool> IsClosedByServerAsync()
    {
        using var timeout = new CancellationTokenSource(s_timeout);
        for (var i = 0; i < 10_000; i++)
        {
            if (await _socket.ReceiveAsync(_buffer, SocketFlags.None, timeout.Token).ConfigureAwait(false) == 0)
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>Closes the connection.</summary>
    public void Close() => _socket.Close();

    /// <inheritdoc/>
    public ValueTask DisposeAsync()
    {
        _socket.Dispose();
        return ValueTask.CompletedTask;
    }
}
