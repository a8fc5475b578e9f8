using System.Net.Sockets;
using System.Text;
using System.Text.Json;
using System.Text.Json.Serialization.Metadata;

namespace CamCube.Hosting.Control;

/// <summary>Sends one request line to a control socket (a node's, or a cube supervisor's) and reads its one-line JSON answer as a typed record.</summary>
public static class ControlClient
{
    /// <summary>The longest answer read, in bytes.</summary>
    public const int ResponseBytesMax = 16 << 20;

    /// <summary>Asks and reads the answer.</summary>
    /// <typeparam name="T">The record the request answers with.</typeparam>
    /// <param name="socketPath">The control socket.</param>
    /// <param name="request">The request line, such as <c>status</c> or <c>ping 1,1,1 10</c>.</param>
    /// <param name="typeInfo">The answer's generated serializer, such as <c>ControlJsonContext.Default.NodeStatus</c>.</param>
    /// <param name="timeout">How long to wait for the whole answer.</param>
    /// <returns>The answer; its <see cref="ControlResponse.Error"/> is set when the request failed.</returns>
    /// <exception cref="SocketException">Nobody listens on the socket.</exception>
    /// <exception cref="OperationCanceledException">No whole answer came within <paramref name="timeout"/>.</exception>
    /// <exception cref="JsonException">The answer is not such a record.</exception>
    public static async Task<T> AskAsync<T>(string socketPath, string request, JsonTypeInfo<T> typeInfo, TimeSpan timeout)
        where T : ControlResponse
    {
        var line = await AskLineAsync(socketPath, request, timeout).ConfigureAwait(false);
        return ControlJson.Read(line, typeInfo);
    }

    /// <summary>Asks, and returns null instead of throwing when nobody answers (no such socket, refused, timed out, not an answer).</summary>
    /// <typeparam name="T">The record the request answers with.</typeparam>
    /// <param name="socketPath">The control socket.</param>
    /// <param name="request">The request line.</param>
    /// <param name="typeInfo">The answer's generated serializer.</param>
    /// <param name="timeout">How long to wait for the whole answer.</param>
    /// <returns>The answer, or null.</returns>
    public static async Task<T?> TryAskAsync<T>(string socketPath, string request, JsonTypeInfo<T> typeInfo, TimeSpan timeout)
        where T : ControlResponse
    {
        if (!File.Exists(socketPath))
        {
            return null;
        }

        try
        {
            return await AskAsync(socketPath, request, typeInfo, timeout).ConfigureAwait(false);
        }
        catch (Exception ex) when (ex is SocketException or OperationCanceledException or IOException or JsonException)
        {
            return null;
        }
    }

    private static async Task<byte[]> AskLineAsync(string socketPath, string request, TimeSpan timeout)
    {
        using var cancel = new CancellationTokenSource(timeout);
        using var socket = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        await socket.ConnectAsync(new UnixDomainSocketEndPoint(socketPath), cancel.Token).ConfigureAwait(false);
        await socket.SendAsync(Encoding.UTF8.GetBytes(request + "\n"), cancel.Token).ConfigureAwait(false);
        using var buffer = new MemoryStream();
        var chunk = new byte[16_384];
        while (buffer.Length < ResponseBytesMax)
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

        return buffer.ToArray();
    }
}
