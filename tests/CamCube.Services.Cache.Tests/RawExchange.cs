using System.Net;
using System.Net.Sockets;
using System.Text;

namespace CamCube.Services.Cache.Tests;

/// <summary>
/// One request to a memcached-speaking server over a fresh TCP connection: every byte it answers,
/// and whether it closed the connection. With <c>halfClose</c> the client shuts its sending side
/// after the request, so a server that keeps the connection open ends it once it has answered
/// everything; without, only a server that closes on its own ends the exchange in time.
/// </summary>
internal static class RawExchange
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromSeconds(30);

    /// <summary>Sends <paramref name="request"/>; returns the reply (Latin-1, byte for byte) and whether the server closed within the timeout.</summary>
    public static async Task<(string Reply, bool Closed)> SendAsync(IPEndPoint server, byte[] request, bool halfClose, TimeSpan? timeout = null)
    {
        using var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        await socket.ConnectAsync(server);
        using var deadline = new CancellationTokenSource(timeout ?? s_timeout);

        // Read while sending: a long request's replies must not fill both sides' buffers.
        var reading = ReadToEndAsync(socket, deadline.Token);
        try
        {
            await socket.SendAsync(request, SocketFlags.None, deadline.Token);
            if (halfClose)
            {
                socket.Shutdown(SocketShutdown.Send);
            }
        }
        catch (SocketException)
        {
            // The server closed before taking the whole request (as memcached does with a line it refuses).
        }

        var (reply, closed) = await reading;
        return (Encoding.Latin1.GetString(reply.ToArray()), closed);
    }

    /// <summary>Builds a request from text, byte for byte.</summary>
    public static byte[] Bytes(string text) => Encoding.Latin1.GetBytes(text);

    private static async Task<(MemoryStream Reply, bool Closed)> ReadToEndAsync(Socket socket, CancellationToken cancellation)
    {
        var reply = new MemoryStream();
        var buffer = new byte[64 * 1024];
        try
        {
            while (true)
            {
                var n = await socket.ReceiveAsync(buffer, SocketFlags.None, cancellation);
                if (n == 0)
                {
                    return (reply, true);
                }

                reply.Write(buffer, 0, n);
            }
        }
        catch (SocketException ex) when (ex.SocketErrorCode == SocketError.ConnectionReset)
        {
            // Closed with bytes of ours unread: the kernel resets instead of a plain end.
            return (reply, true);
        }
        catch (OperationCanceledException)
        {
            return (reply, false);
        }
    }
}
