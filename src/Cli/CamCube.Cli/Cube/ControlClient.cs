using System.Net.Sockets;
using System.Text;
using System.Text.Json;

namespace CamCube.Cli.Cube;

/// <summary>Sends one request line to a control socket (a node's or the supervisor's) and reads the JSON line back.</summary>
internal static class ControlClient
{
    public static async Task<JsonDocument> AskAsync(string socketPath, string request, TimeSpan timeout)
    {
        using var cancel = new CancellationTokenSource(timeout);
        using var socket = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        await socket.ConnectAsync(new UnixDomainSocketEndPoint(socketPath), cancel.Token).ConfigureAwait(false);
        await socket.SendAsync(Encoding.UTF8.GetBytes(request + "\n"), cancel.Token).ConfigureAwait(false);
        var buffer = new MemoryStream();
        var chunk = new byte[16_384];
        while (true)
        {
            var read = await socket.ReceiveAsync(chunk, cancel.Token).ConfigureAwait(false);
            if (read == 0)
            {
                break;
            }

            buffer.Write(chunk, 0, read);
            if (chunk[read - 1] == (byte)'\n')
            {
                break;
            }
        }

        return JsonDocument.Parse(buffer.ToArray());
    }

    /// <summary>Asks, and returns null instead of throwing when nobody answers (no such socket, refused, timed out).</summary>
    public static async Task<JsonDocument?> TryAskAsync(string socketPath, string request, TimeSpan timeout)
    {
        if (!File.Exists(socketPath))
        {
            return null;
        }

        try
        {
            return await AskAsync(socketPath, request, timeout).ConfigureAwait(false);
        }
        catch (Exception ex) when (ex is SocketException or OperationCanceledException or IOException or JsonException)
        {
            return null;
        }
    }
}
