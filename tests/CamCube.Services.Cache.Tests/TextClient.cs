using System.Net;
using System.Net.Sockets;
using System.Text;

namespace CamCube.Services.Cache.Tests;

/// <summary>A raw memcached text-protocol client for tests: send bytes, read until a reply ends, with a timeout.</summary>
internal sealed class TextClient : IAsyncDisposable
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromSeconds(10);
    private readonly Socket _socket = new(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
    private readonly StringBuilder _received = new();
    private readonly byte[] _buffer = new byte[64 * 1024];

    public static async Task<TextClient> ConnectAsync(IPEndPoint endPoint)
    {
        var client = new TextClient();
        await client._socket.ConnectAsync(endPoint);
        return client;
    }

    public Task SendAsync(string text) => SendAsync(Encoding.Latin1.GetBytes(text));

    public async Task SendAsync(byte[] bytes) => await _socket.SendAsync(bytes, SocketFlags.None);

    /// <summary>Sends <paramref name="text"/> and returns the reply up to and including <paramref name="end"/>.</summary>
    public async Task<string> AskAsync(string text, string end = "\r\n")
    {
        await SendAsync(text);
        return await ReadUntilAsync(end);
    }

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

            var n = await _socket.ReceiveAsync(_buffer, SocketFlags.None, timeout.Token);
            if (n == 0)
            {
                throw new IOException($"The server closed the connection; received so far: '{text}'");
            }

            _received.Append(Encoding.Latin1.GetString(_buffer, 0, n));
        }
    }

    /// <summary>Returns true once the server has closed the connection (reads return 0), within the timeout.</summary>
    public async Task<bool> IsClosedByServerAsync()
    {
        using var timeout = new CancellationTokenSource(s_timeout);
        for (var i = 0; i < 10_000; i++)
        {
            if (await _socket.ReceiveAsync(_buffer, SocketFlags.None, timeout.Token) == 0)
            {
                return true;
            }
        }

        return false;
    }

    public void Close() => _socket.Close();

    public ValueTask DisposeAsync()
    {
        _socket.Dispose();
        return ValueTask.CompletedTask;
    }
}
