using System.Net.Sockets;
using System.Text;
using CamCube.Cli.Tests;
using CamCube.Hosting.Control;
using Microsoft.Extensions.Logging.Abstractions;

namespace CamCube.Hosting.Tests;

/// <summary>The control socket over a real Unix socket: its mode, its bounds, and requests whose asker hangs up.</summary>
[System.Runtime.Versioning.UnsupportedOSPlatform("windows")]
public sealed class ControlServerTests
{
    private static readonly TimeSpan s_patience = TimeSpan.FromSeconds(30);

    private static Task<(string Response, bool Stop)> Echo(string line, CancellationToken cancellationToken) =>
        Task.FromResult((ControlJson.Write(new ProbeResult { Key = line }, ControlJsonContext.Default.ProbeResult), false));

    private static async Task<Socket> ConnectAsync(string path)
    {
        var socket = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        await socket.ConnectAsync(new UnixDomainSocketEndPoint(path));
        return socket;
    }

    /// <summary>Reads until the server closes the connection; a reset (a close with our bytes unread) is a close too.</summary>
    private static async Task<string> ReadToEndAsync(Socket socket)
    {
        var text = new StringBuilder();
        var buffer = new byte[4_096];
        int read;
        using var timeout = new CancellationTokenSource(s_patience);
        try
        {
            while ((read = await socket.ReceiveAsync(buffer, timeout.Token)) > 0)
            {
                text.Append(Encoding.UTF8.GetString(buffer, 0, read));
            }
        }
        catch (SocketException ex) when (ex.SocketErrorCode == SocketError.ConnectionReset)
        {
            // Closed before it read what we sent: closed all the same.
        }

        return text.ToString();
    }

    [Fact]
    public async Task SocketIsForItsOwnerOnlyWhenStarted()
    {
        using var directory = new TemporaryDirectory();
        var path = Path.Combine(directory.Path, "c.sock");
        await using var server = new ControlServer(path, Echo, NullLogger.Instance);
        server.Start();
        Assert.Equal(UnixFileMode.UserRead | UnixFileMode.UserWrite, File.GetUnixFileMode(path));
    }

    [Fact]
    public async Task ConnectionPastTheMaximumIsToldSoAndClosedWhenAllAreTaken()
    {
        using var directory = new TemporaryDirectory();
        var path = Path.Combine(directory.Path, "c.sock");
        await using var server = new ControlServer(path, Echo, NullLogger.Instance, connectionsMax: 2, requestTimeout: TimeSpan.FromMinutes(10));
        server.Start();
        using var first = await ConnectAsync(path);
        using var second = await ConnectAsync(path);
        using var third = await ConnectAsync(path);
        Assert.Equal("{\"error\":\"busy: 2 control connections are open; try again\"}\n", await ReadToEndAsync(third));

        // One of the two served finishes its request; its place is free again.
        await first.SendAsync("status\n"u8.ToArray());
        Assert.Equal("{\"key\":\"status\",\"keyCoordinate\":\"\"}\n", await ReadToEndAsync(first));
        using var fourth = await ConnectAsync(path);
        await fourth.SendAsync("again\n"u8.ToArray());
        Assert.Equal("{\"key\":\"again\",\"keyCoordinate\":\"\"}\n", await ReadToEndAsync(fourth));
        Assert.Equal(1, server.Connections);
    }

    [Fact]
    public async Task IdleConnectionIsClosedWhenItSendsNoLineWithinTheRequestTimeout()
    {
        using var directory = new TemporaryDirectory();
        var path = Path.Combine(directory.Path, "c.sock");
        await using var server = new ControlServer(path, Echo, NullLogger.Instance, requestTimeout: TimeSpan.FromMilliseconds(200));
        server.Start();
        using var idle = await ConnectAsync(path);
        await idle.SendAsync("stat"u8.ToArray());

        // Closed without an answer: the server does not wait for the rest of the line for ever.
        Assert.Equal("", await ReadToEndAsync(idle));
        Assert.Equal(0, server.Connections);
    }

    [Fact]
    public async Task RequestIsCancelledWhenItsAskerHangsUp()
    {
        using var directory = new TemporaryDirectory();
        var path = Path.Combine(directory.Path, "c.sock");
        var started = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var cancelled = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        async Task<(string, bool)> Slow(string line, CancellationToken cancellationToken)
        {
            cancellationToken.Register(() => cancelled.TrySetResult());
            started.TrySetResult();
            await Task.Delay(Timeout.InfiniteTimeSpan, cancellationToken);
            return ("{}", false);
        }

        await using var server = new ControlServer(path, Slow, NullLogger.Instance);
        server.Start();
        using (var asker = await ConnectAsync(path))
        {
            await asker.SendAsync("ping 1,1,1 100000\n"u8.ToArray());
            await started.Task.WaitAsync(s_patience);
        }

        await cancelled.Task.WaitAsync(s_patience);
    }
}
