using System.Globalization;
using System.Net.Sockets;
using System.Text;

namespace CamCube.Integration.Tests;

/// <summary>A minimal memcached text-protocol client over a real TCP connection, for tests.</summary>
internal sealed class MemcachedTextClient : IDisposable
{
    private readonly TcpClient _client;
    private readonly StreamReader _reader;
    private readonly Stream _stream;

    public MemcachedTextClient(int port)
    {
        _client = new TcpClient("127.0.0.1", port) { ReceiveTimeout = 15_000 };
        _stream = _client.GetStream();
        _reader = new StreamReader(_stream, Encoding.ASCII);
    }

    public string Command(string line, string? data = null)
    {
        var bytes = Encoding.ASCII.GetBytes(line + "\r\n" + (data is null ? string.Empty : data + "\r\n"));
        _stream.Write(bytes);
        return _reader.ReadLine() ?? throw new IOException("the front-end closed the connection");
    }

    /// <summary>Sends a get/gets and returns the VALUE line and data, or null on a miss.</summary>
    /// <exception cref="MemcachedErrorException">The front-end answered an error line (SERVER_ERROR while the store cannot serve the key) in place of the values.</exception>
    public (string Header, string Data)? Get(string verb, string key)
    {
        var first = Command($"{verb} {key}");
        if (first == "END")
        {
            return null;
        }

        if (!first.StartsWith("VALUE ", StringComparison.Ordinal))
        {
            // An error line ends the reply: no data line follows, so waiting for one would only run into the read timeout.
            throw new MemcachedErrorException($"{verb} {key} was answered {first}");
        }

        var data = _reader.ReadLine()!;
        Assert.Equal("END", _reader.ReadLine());
        return (first, data);
    }

    /// <summary>Sends <c>stats</c> and returns the front-end's numeric counters by name.</summary>
    public Dictionary<string, long> Stats()
    {
        var stats = new Dictionary<string, long>(StringComparer.Ordinal);
        for (var line = Command("stats"); line != "END"; line = _reader.ReadLine() ?? throw new IOException("the front-end closed the connection"))
        {
            if (line.Split(' ') is ["STAT", var name, var value] && long.TryParse(value, NumberStyles.None, CultureInfo.InvariantCulture, out var number))
            {
                stats[name] = number;
            }
        }

        return stats;
    }

    public void Dispose()
    {
        _reader.Dispose();
        _client.Dispose();
    }
}
