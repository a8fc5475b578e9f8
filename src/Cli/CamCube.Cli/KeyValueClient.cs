using System.Globalization;
using System.Net;
using System.Net.Sockets;
using System.Text;

namespace CamCube.Cli;

/// <summary>The few memcached text-protocol exchanges <c>camcube kv</c> needs, over one TCP connection with a time limit on each.</summary>
internal sealed class KeyValueClient : IDisposable
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromSeconds(30);
    private readonly Socket _socket;
    private readonly NetworkStream _stream;
    private readonly BufferedStream _input;

    private KeyValueClient(Socket socket)
    {
        _socket = socket;
        _stream = new NetworkStream(socket, ownsSocket: true);
        _input = new BufferedStream(_stream);
    }

    /// <summary>Connects to a front-end.</summary>
    /// <exception cref="CommandFailedException">Nothing listens there.</exception>
    public static KeyValueClient Connect(IPEndPoint endPoint)
    {
        var socket = new Socket(endPoint.AddressFamily, SocketType.Stream, ProtocolType.Tcp)
        {
            ReceiveTimeout = (int)s_timeout.TotalMilliseconds,
            SendTimeout = (int)s_timeout.TotalMilliseconds,
            NoDelay = true,
        };
        try
        {
            socket.Connect(endPoint);
        }
        catch (SocketException ex)
        {
            socket.Dispose();
            throw new CommandFailedException($"no key-value front-end answers on {endPoint} ({ex.Message}); is the cube up ('camcube cube status'), or is the node killed?");
        }

        return new KeyValueClient(socket);
    }

    /// <summary>Sends set, add or cas and returns the reply line.</summary>
    /// <param name="command">set, add or cas.</param>
    /// <param name="key">The key's bytes, as the front-end hashes them (not necessarily UTF-8).</param>
    /// <param name="flags">The flags stored with the value.</param>
    /// <param name="value">The value's bytes.</param>
    /// <param name="cas">The version cas expects; null for set and add.</param>
    public string Store(string command, byte[] key, uint flags, byte[] value, ulong? cas)
    {
        var arguments = cas is { } unique
            ? string.Create(CultureInfo.InvariantCulture, $" {flags} 0 {value.Length} {unique}")
            : string.Create(CultureInfo.InvariantCulture, $" {flags} 0 {value.Length}");
        Send([.. Line(command, key, arguments), .. value, .. "\r\n"u8]);
        return ReadLine();
    }

    /// <summary>Sends delete and returns the reply line.</summary>
    public string Delete(byte[] key)
    {
        Send(Line("delete", key, string.Empty));
        return ReadLine();
    }

    /// <summary>Sends gets; null when the key holds no value.</summary>
    /// <exception cref="CommandFailedException">The front-end answered with an error.</exception>
    public (byte[] Value, ulong Version, uint Flags)? Get(byte[] key)
    {
        Send(Line("gets", key, string.Empty));
        var line = ReadLine();
        if (line == "END")
        {
            return null;
        }

        // VALUE <key> <flags> <bytes> <cas>
        var parts = line.Split(' ');
        if (parts is not ["VALUE", _, var flags, var bytes, var cas])
        {
            throw new CommandFailedException($"the front-end answered get with: {line}");
        }

        var value = new byte[int.Parse(bytes, CultureInfo.InvariantCulture) + 2];
        _input.ReadExactly(value);
        var end = ReadLine();
        return end == "END"
            ? (value[..^2], ulong.Parse(cas, CultureInfo.InvariantCulture), uint.Parse(flags, CultureInfo.InvariantCulture))
            : throw new CommandFailedException($"the front-end ended get with: {end}");
    }

    /// <inheritdoc/>
    public void Dispose()
    {
        _input.Dispose();
        _stream.Dispose();
    }

    /// <summary>A command line: the command, the key's own bytes (never re-encoded), the ASCII arguments after it.</summary>
    private static byte[] Line(string command, byte[] key, string arguments) =>
        [.. Encoding.ASCII.GetBytes(command), (byte)' ', .. key, .. Encoding.ASCII.GetBytes(arguments), .. "\r\n"u8];

    private void Send(byte[] bytes)
    {
        try
        {
            _stream.Write(bytes);
        }
        catch (IOException ex)
        {
            throw new CommandFailedException($"the front-end closed the connection ({ex.Message}).");
        }
    }

    /// <summary>Reads one reply line without its terminator.</summary>
    private string ReadLine()
    {
        var line = new StringBuilder();
        try
        {
            while (true)
            {
                var b = _input.ReadByte();
                if (b < 0)
                {
                    throw new CommandFailedException("the front-end closed the connection without answering.");
                }

                if (b == '\n')
                {
                    return line.ToString().TrimEnd('\r');
                }

                line.Append((char)b);
            }
        }
        catch (IOException ex)
        {
            throw new CommandFailedException($"the front-end did not answer within {s_timeout.TotalSeconds:0} s ({ex.Message}).");
        }
    }
}
