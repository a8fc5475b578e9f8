using System.Globalization;
using System.Net;
using System.Net.Sockets;
using System.Text;

namespace CamCube.KeyValueVsEtcd;

/// <summary>
/// One connection to a memcached text-protocol server: <c>set</c>, <c>gets</c> (the cas unique
/// is the store's version) and <c>cas</c>, one request at a time.
/// </summary>
internal sealed class MemcachedBenchClient : IBenchClient
{
    private const int BufferBytes = 64 * 1024;
    private readonly Socket _socket;
    private readonly byte[] _receive = new byte[BufferBytes];
    private byte[] _send = new byte[BufferBytes];
    private int _start;
    private int _end;

    private MemcachedBenchClient(Socket socket) => _socket = socket;

    /// <summary>Connects to <paramref name="endPoint"/>.</summary>
    /// <param name="endPoint">The server.</param>
    /// <param name="cancellationToken">Cancels the connect.</param>
    /// <returns>The connected client.</returns>
    public static async Task<MemcachedBenchClient> ConnectAsync(IPEndPoint endPoint, CancellationToken cancellationToken)
    {
        var socket = new Socket(endPoint.AddressFamily, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        try
        {
            await socket.ConnectAsync(endPoint, cancellationToken).ConfigureAwait(false);
            return new MemcachedBenchClient(socket);
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    }

    /// <inheritdoc/>
    public async Task PutAsync(string key, ReadOnlyMemory<byte> value, CancellationToken cancellationToken)
    {
        await SendAsync(string.Create(CultureInfo.InvariantCulture, $"set {key} 0 0 {value.Length}\r\n"), value, cancellationToken).ConfigureAwait(false);
        var line = await ReadLineAsync(cancellationToken).ConfigureAwait(false);
        if (line != "STORED")
        {
            throw new InvalidOperationException($"set {key}: '{line}'");
        }
    }

    /// <inheritdoc/>
    public async Task<(long Version, int Length)> GetAsync(string key, CancellationToken cancellationToken)
    {
        await SendAsync($"gets {key}\r\n", ReadOnlyMemory<byte>.Empty, cancellationToken).ConfigureAwait(false);
        var line = await ReadLineAsync(cancellationToken).ConfigureAwait(false);
        if (line == "END")
        {
            return (0, 0);
        }

        // VALUE <key> <flags> <bytes> <cas unique>
        var fields = line.Split(' ');
        if (fields.Length != 5 || fields[0] != "VALUE" || fields[1] != key
            || !int.TryParse(fields[3], NumberStyles.None, CultureInfo.InvariantCulture, out var length)
            || !long.TryParse(fields[4], NumberStyles.None, CultureInfo.InvariantCulture, out var version))
        {
            throw new InvalidOperationException($"gets {key}: '{line}'");
        }

        await SkipAsync(length + 2, cancellationToken).ConfigureAwait(false);
        var end = await ReadLineAsync(cancellationToken).ConfigureAwait(false);
        return end == "END" ? (version, length) : throw new InvalidOperationException($"gets {key}: '{end}' after the value");
    }

    /// <inheritdoc/>
    public async Task<bool> CompareAndSwapAsync(string key, long version, ReadOnlyMemory<byte> value, CancellationToken cancellationToken)
    {
        await SendAsync(string.Create(CultureInfo.InvariantCulture, $"cas {key} 0 0 {value.Length} {version}\r\n"), value, cancellationToken).ConfigureAwait(false);
        var line = await ReadLineAsync(cancellationToken).ConfigureAwait(false);
        return line switch
        {
            "STORED" => true,
            "EXISTS" or "NOT_FOUND" => false,
            _ => throw new InvalidOperationException($"cas {key}: '{line}'"),
        };
    }

    /// <inheritdoc/>
    public ValueTask DisposeAsync()
    {
        _socket.Dispose();
        return ValueTask.CompletedTask;
    }

    private async Task SendAsync(string command, ReadOnlyMemory<byte> value, CancellationToken cancellationToken)
    {
        var length = Encoding.ASCII.GetByteCount(command) + (value.IsEmpty ? 0 : value.Length + 2);
        if (_send.Length < length)
        {
            _send = new byte[length];
        }

        var written = Encoding.ASCII.GetBytes(command, _send);
        if (!value.IsEmpty)
        {
            value.Span.CopyTo(_send.AsSpan(written));
            written += value.Length;
            _send[written++] = (byte)'\r';
            _send[written++] = (byte)'\n';
        }

        var sent = 0;
        while (sent < written)
        {
            sent += await _socket.SendAsync(_send.AsMemory(sent, written - sent), SocketFlags.None, cancellationToken).ConfigureAwait(false);
        }
    }

    private async Task<string> ReadLineAsync(CancellationToken cancellationToken)
    {
        while (true)
        {
            var newline = Array.IndexOf(_receive, (byte)'\n', _start, _end - _start);
            if (newline >= 0)
            {
                var line = Encoding.ASCII.GetString(_receive, _start, newline - _start).TrimEnd('\r');
                _start = newline + 1;
                return line;
            }

            await FillAsync(cancellationToken).ConfigureAwait(false);
        }
    }

    private async Task SkipAsync(int count, CancellationToken cancellationToken)
    {
        while (count > 0)
        {
            if (_start == _end)
            {
                await FillAsync(cancellationToken).ConfigureAwait(false);
            }

            var take = Math.Min(count, _end - _start);
            _start += take;
            count -= take;
        }
    }

    private async Task FillAsync(CancellationToken cancellationToken)
    {
        if (_start > 0)
        {
            Array.Copy(_receive, _start, _receive, 0, _end - _start);
            _end -= _start;
            _start = 0;
        }

        if (_end == _receive.Length)
        {
            throw new InvalidOperationException($"a reply line is longer than {BufferBytes} bytes");
        }

        var read = await _socket.ReceiveAsync(_receive.AsMemory(_end), SocketFlags.None, cancellationToken).ConfigureAwait(false);
        _end += read > 0 ? read : throw new InvalidOperationException("the server closed the connection");
    }
}
