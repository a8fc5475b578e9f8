using System.Net.Sockets;
using System.Text;
using System.Text.Json;

namespace CamCube.Integration.Tests;

/// <summary>Asks a control socket as any client would, reading its answer as plain JSON: the tests check the wire, not the records.</summary>
internal static class RawControl
{
    public static JsonDocument Ask(string socketPath, string request, TimeSpan timeout)
    {
        using var cancel = new CancellationTokenSource(timeout);
        using var socket = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        socket.ConnectAsync(new UnixDomainSocketEndPoint(socketPath), cancel.Token).AsTask().GetAwaiter().GetResult();
        socket.Send(Encoding.UTF8.GetBytes(request + "\n"));
        using var stream = new NetworkStream(socket);
        using var reader = new StreamReader(stream);
        var line = reader.ReadLineAsync(cancel.Token).AsTask().GetAwaiter().GetResult() ?? throw new IOException("no answer");
        return JsonDocument.Parse(line);
    }

    public static JsonDocument? TryAsk(string socketPath, string request, TimeSpan timeout)
    {
        try
        {
            return File.Exists(socketPath) ? Ask(socketPath, request, timeout) : null;
        }
        catch (Exception ex) when (ex is SocketException or IOException or OperationCanceledException or JsonException)
        {
            return null;
        }
    }
}
