using System.Net;
using System.Net.Sockets;
using CamCube.Hosting;
using Microsoft.Extensions.Logging.Abstractions;

namespace CamCube.UdpDrivers;

/// <summary>The processes the ping driver starts: node (1,0,0) of a 2x1x1 cube, and a plain UDP echo server.</summary>
internal static class ChildModes
{
    public static async Task<int> RunPingNodeAsync(DriverArguments arguments)
    {
        var settings = PingDriver.NodeSettingsFor(new Coordinate(1, 0, 0), arguments.Int("base-port", PingDriver.DefaultBasePort), PingDriver.LoopKind(arguments), TimeSpan.FromMicroseconds(arguments.Int("loop-spin-us", 0, min: 0)), TimeSpan.FromMicroseconds(PingDriver.UdpSpinMicroseconds(arguments)));
        var node = await CamCubeNode.StartAsync(settings, PingDriver.Parts(), NullLoggerFactory.Instance, CancellationToken.None).ConfigureAwait(false);
        await using var nodeScope = node.ConfigureAwait(false);
        await ReadyThenWaitAsync(TimeSpan.FromSeconds(arguments.Int("max-seconds", 300))).ConfigureAwait(false);
        return 0;
    }

    public static async Task<int> RunEchoServerAsync(DriverArguments arguments)
    {
        using var socket = new Socket(AddressFamily.InterNetwork, SocketType.Dgram, ProtocolType.Udp);
        socket.Bind(new IPEndPoint(IPAddress.Loopback, arguments.Int("port", PingDriver.DefaultEchoPort)));
        socket.ReceiveTimeout = 200;
        var stop = new StopFlag();
        using var aead = arguments.Int("sealed", 0, min: 0) == 1 ? new SealedPingPong(echo: true) : null;
        var thread = new Thread(() => Echo(socket, stop, aead)) { IsBackground = true, Name = "echo" };
        thread.Start();
        await ReadyThenWaitAsync(TimeSpan.FromSeconds(arguments.Int("max-seconds", 300))).ConfigureAwait(false);
        stop.Set();
        thread.Join();
        return 0;
    }

    /// <summary>The echo loop: a blocking receive and a send back (opened and sealed again with <paramref name="aead"/>), on one thread, allocation-free.</summary>
    private static void Echo(Socket socket, StopFlag stop, SealedPingPong? aead)
    {
        var buffer = new byte[65_536];
        var from = new SocketAddress(AddressFamily.InterNetwork);
        while (!stop.IsSet)
        {
            int length;
            try
            {
                length = socket.ReceiveFrom(buffer, SocketFlags.None, from);
            }
            catch (SocketException ex) when (ex.SocketErrorCode is SocketError.TimedOut or SocketError.WouldBlock or SocketError.ConnectionReset)
            {
                continue;
            }

            if (aead is not null)
            {
                if (!aead.TryOpen(buffer.AsSpan(0, length)))
                {
                    continue;
                }

                aead.Seal(buffer.AsSpan(0, length));
            }

            socket.SendTo(buffer.AsSpan(0, length), SocketFlags.None, from);
        }
    }

    /// <summary>Tells the parent the child listens, then waits until standard input closes (or says stop) or the time limit passes.</summary>
    private static async Task ReadyThenWaitAsync(TimeSpan limit)
    {
        await Console.Out.WriteLineAsync("ready").ConfigureAwait(false);
        await Console.Out.FlushAsync().ConfigureAwait(false);
        using var timeout = new CancellationTokenSource(limit, TimeProvider.System);
        try
        {
            while (await Console.In.ReadLineAsync(timeout.Token).ConfigureAwait(false) is { } line && line != "stop")
            {
            }
        }
        catch (OperationCanceledException)
        {
            await Console.Error.WriteLineAsync("time limit reached; stopping").ConfigureAwait(false);
        }
    }
}
