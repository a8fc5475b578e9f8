using System.Net;
using System.Net.Sockets;
using System.Text.Json;
using CamCube.Hosting;

namespace CamCube.Fuzz.Targets;

/// <summary>
/// The control socket's requests: the input is what a client sends a node's control socket (a real
/// `camcube node` of a 1x1x1 cube in this process, over UDP on loopback, its control socket a Unix
/// socket). The protocol promises one JSON object per line back, an error object for a bad request;
/// a finding is no reply, a reply that is not one JSON line, or no reply within
/// <see cref="ReplyTimeout"/> (a request must not hold its client, or the node, for longer).
/// </summary>
public sealed class ControlRequestTarget : IFuzzTarget
{
    /// <summary>How long a request may take to answer.</summary>
    public static readonly TimeSpan ReplyTimeout = TimeSpan.FromSeconds(5);

    private static readonly Lazy<string> s_socket = new(StartNode);

    /// <inheritdoc/>
    public string Name => "control";

    /// <inheritdoc/>
    public string Description => "request lines into a node's control socket (ControlServer, ControlResponses)";

    /// <inheritdoc/>
    public void Run(byte[] input)
    {
        ArgumentNullException.ThrowIfNull(input);
        using var client = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        client.Connect(new UnixDomainSocketEndPoint(s_socket.Value));
        using var timeout = new CancellationTokenSource(ReplyTimeout);
        var send = SendAsync(client, input, timeout.Token);
        var reply = ReceiveAllAsync(client, timeout.Token).GetAwaiter().GetResult();
        send.GetAwaiter().GetResult();
        if (reply is null)
        {
            throw new FuzzFindingException($"{Name}: no reply within {ReplyTimeout.TotalSeconds} s.");
        }

        Check(reply);
    }

    private void Check(byte[] reply)
    {
        if (reply.Length == 0 || reply[^1] != (byte)'\n' || Array.IndexOf(reply, (byte)'\n') != reply.Length - 1)
        {
            throw new FuzzFindingException($"{Name}: the reply is not one line: {reply.Length} bytes, '{System.Text.Encoding.UTF8.GetString(reply)}'.");
        }

        try
        {
            using var document = JsonDocument.Parse(reply.AsMemory(0, reply.Length - 1));
            if (document.RootElement.ValueKind != JsonValueKind.Object)
            {
                throw new FuzzFindingException($"{Name}: the reply is JSON but not an object.");
            }
        }
        catch (JsonException ex)
        {
            throw new FuzzFindingException($"{Name}: the reply is not JSON: {ex.Message}", ex);
        }
    }

    private static async Task SendAsync(Socket client, byte[] input, CancellationToken cancellationToken)
    {
        try
        {
            await client.SendAsync(input, SocketFlags.None, cancellationToken).ConfigureAwait(false);
            client.Shutdown(SocketShutdown.Send);
        }
        catch (Exception ex) when (ex is SocketException or OperationCanceledException)
        {
            // The node answered and closed before reading everything: a long request's right end.
        }
    }

    /// <summary>Reads until the node closes the connection; null if it did not within the time-out.</summary>
    private static async Task<byte[]?> ReceiveAllAsync(Socket client, CancellationToken cancellationToken)
    {
        var reply = new MemoryStream();
        var buffer = new byte[4096];
        try
        {
            int read;
            while ((read = await client.ReceiveAsync(buffer, SocketFlags.None, cancellationToken).ConfigureAwait(false)) > 0)
            {
                reply.Write(buffer, 0, read);
            }
        }
        catch (OperationCanceledException)
        {
            return null;
        }
        catch (SocketException)
        {
            // Reset after the reply: what came is the reply.
        }

        return reply.ToArray();
    }

    /// <summary>Starts the node this process keeps for the target, on a free UDP port; returns its control socket's path.</summary>
    private static string StartNode()
    {
        var directory = Path.Combine(Path.GetTempPath(), $"camcube-fuzz-{Environment.ProcessId}");
        Directory.CreateDirectory(directory);
        var path = Path.Combine(directory, "control.sock");
        int port;
        using (var probe = new Socket(AddressFamily.InterNetwork, SocketType.Dgram, ProtocolType.Udp))
        {
            probe.Bind(new IPEndPoint(IPAddress.Loopback, 0));
            port = ((IPEndPoint)probe.LocalEndPoint!).Port;
        }

        var settings = new CamCubeNodeOptions
        {
            Shape = "1x1x1",
            Coordinate = "0,0,0",
            BasePort = port,
            Insecure = true,
            ControlSocket = path,
        };
        _ = CamCubeNode.StartAsync(settings, new CamCubeNodeParts(), Microsoft.Extensions.Logging.Abstractions.NullLoggerFactory.Instance, CancellationToken.None).GetAwaiter().GetResult();
        return path;
    }
}
