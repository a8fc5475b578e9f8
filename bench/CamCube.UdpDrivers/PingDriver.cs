using System.Buffers.Binary;
using System.Globalization;
using System.Net;
using System.Net.Sockets;
using CamCube.Hosting;
using CamCube.Services.Diagnostics;
using CamCube.Transport;
using CamCube.Transport.Udp;
using Microsoft.Extensions.Logging.Abstractions;

namespace CamCube.UdpDrivers;

/// <summary>
/// 1-hop ping RTT through the runtime against a plain UDP ping-pong, in the same run. The runtime
/// path: node (0,0,0) of a 2x1x1 cube in this process pings node (1,0,0) in a child process, over
/// UDP on loopback with a cluster key (AES-GCM), through PingService (its own RTT, taken on the
/// node's loop). The plain path: a connected UDP socket in this process sends a datagram of the
/// same size to an echo server in another child process and blocks for the echo. For context, a
/// third path does the same with the transport's AES-GCM (the client seals and opens, the echo
/// opens and seals again): what the cryptography alone adds. The paths alternate in blocks so that
/// load from other work on the host falls on all alike.
/// </summary>
internal static class PingDriver
{
    public const int DefaultBasePort = 29_000;
    public const int DefaultEchoPort = 29_010;

    /// <summary>The size of a ping's datagram: UDP transport header, one length prefix, packet header, ping payload (15 bytes), AES-GCM tag.</summary>
    private static readonly int s_datagramBytes = DatagramSizes.Ping;

    /// <summary>The default of <c>--warmup</c>: the fewest warm-up pings per path before the counted ones.</summary>
    private const int WarmupCountDefault = 300;

    /// <summary>
    /// The default of <c>--warmup-ms</c>: how long each path is warmed up at least. The runtime's
    /// code is compiled again, optimised, only after it has run a while (tiered compilation, about
    /// 100 ms after the last new method, then in the background); a few hundred pings take
    /// milliseconds and left the first blocks timing unoptimised code (runtime medians 25-27 µs
    /// against 18 µs after 60,000 warm-up pings, 2026-11-24).
    /// </summary>
    private const int WarmupMillisecondsDefault = 3_000;

    /// <summary>How many pings a warm-up runs between looks at the clock.</summary>
    private const int WarmupChunk = 2_000;
    private static readonly TorusShape s_shape = new(2, 1, 1);

    public static CamCubeNodeOptions NodeSettingsFor(Coordinate self, int basePort, NodeLoopKind loop, TimeSpan loopIdleSpin, TimeSpan udpSpin) => new()
    {
        Shape = s_shape.ToString(),
        Coordinate = string.Create(CultureInfo.InvariantCulture, $"{self.X},{self.Y},{self.Z}"),
        BasePort = basePort,
        Loop = loop,
        LoopIdleSpin = loopIdleSpin,
        UdpSpinAfterSend = udpSpin,
    };

    /// <summary>Reads <c>--udp-spin-us</c> (default <see cref="CamCubeNodeOptions.UdpSpinAfterSend"/>'s) for the drivers' nodes.</summary>
    public static int UdpSpinMicroseconds(DriverArguments arguments) =>
        arguments.Int("udp-spin-us", (int)new CamCubeNodeOptions().UdpSpinAfterSend.TotalMicroseconds, min: 0);

    /// <summary>The services of the drivers' nodes besides ping and key probe: the link benchmark.</summary>
    public static CamCubeNodeParts Parts()
    {
        var parts = new CamCubeNodeParts();
        parts.Services.Add(new LinkBenchmarkService());
        return parts;
    }

    private static TimeSpan ProcessCpu()
    {
        using var process = System.Diagnostics.Process.GetCurrentProcess();
        return process.TotalProcessorTime;
    }

    private static string SpinReport(CamCubeNode node) => node.Loop is UdpEventLoop loop
        ? string.Create(CultureInfo.InvariantCulture, $"node (0,0,0)'s loop: spun after a send {loop.Spins} times, {loop.SpinsAnswered} ended by a datagram or work")
        : "node (0,0,0)'s loop: threaded (no spin after a send)";

    /// <summary>Reads <c>--loop udp|threaded</c> (default udp) for the drivers' nodes.</summary>
    public static NodeLoopKind LoopKind(DriverArguments arguments) => arguments.Text("loop") switch
    {
        null or "udp" => NodeLoopKind.Udp,
        "threaded" => NodeLoopKind.Threaded,
        var other => throw new FormatException($"--loop '{other}' is not udp or threaded"),
    };

    public static async Task<int> RunAsync(DriverArguments arguments)
    {
        var count = arguments.Int("count", 2000);
        var warmup = arguments.Int("warmup", WarmupCountDefault, min: 1);
        var warmupTime = TimeSpan.FromMilliseconds(arguments.Int("warmup-ms", WarmupMillisecondsDefault, min: 0));
        var blocks = Math.Min(arguments.Int("blocks", 10), count);
        var basePort = arguments.Int("base-port", DefaultBasePort);
        var echoPort = arguments.Int("echo-port", DefaultEchoPort);
        var spinMicroseconds = arguments.Int("loop-spin-us", 0, min: 0);
        var udpSpinMicroseconds = UdpSpinMicroseconds(arguments);
        var udpSpin = TimeSpan.FromMicroseconds(udpSpinMicroseconds);
        var spin = TimeSpan.FromMicroseconds(spinMicroseconds);
        var loop = LoopKind(arguments);
        var loopName = loop == NodeLoopKind.Udp ? "udp" : "threaded";
        var perBlock = (count + blocks - 1) / blocks;

        await Console.Out.WriteLineAsync(await MachineInfo.DescribeAsync().ConfigureAwait(false)).ConfigureAwait(false);
        await Console.Out.WriteLineAsync(string.Create(CultureInfo.InvariantCulture, $"ping: {blocks} blocks of {perBlock} pings per path, alternating, after warming each path up for {warmupTime.TotalMilliseconds} ms (--warmup-ms) and at least {warmup} pings (--warmup); {s_datagramBytes}-byte datagrams both ways; both nodes on --loop {loopName}, a threaded loop spinning {spinMicroseconds} µs before it sleeps (--loop-spin-us), a udp loop watching its socket {udpSpinMicroseconds} µs after it sent (--udp-spin-us)")).ConfigureAwait(false);

        // A fresh cluster key for this run, handed to the nodes through the environment (never the command line).
        var key = ClusterKey.CreateRandom().ToHexString();
        Environment.SetEnvironmentVariable(ClusterKey.DefaultEnvironmentVariable, key);
        var environment = new Dictionary<string, string> { [ClusterKey.DefaultEnvironmentVariable] = key };
        var limit = (60 + (3 * (int)warmupTime.TotalSeconds) + (count / 50)).ToString(CultureInfo.InvariantCulture);
        var ready = TimeSpan.FromSeconds(30);

        var echo = await ChildProcess.StartAsync("echo-server", environment, ready, "--port", Text(echoPort), "--max-seconds", limit).ConfigureAwait(false);
        await using var echoScope = echo.ConfigureAwait(false);
        var sealedEcho = await ChildProcess.StartAsync("echo-server", environment, ready, "--port", Text(echoPort + 1), "--max-seconds", limit, "--sealed", "1").ConfigureAwait(false);
        await using var sealedEchoScope = sealedEcho.ConfigureAwait(false);
        var peer = await ChildProcess.StartAsync("ping-node", environment, ready, "--base-port", Text(basePort), "--max-seconds", limit, "--loop", loopName, "--loop-spin-us", Text(spinMicroseconds), "--udp-spin-us", Text(udpSpinMicroseconds)).ConfigureAwait(false);
        await using var peerScope = peer.ConfigureAwait(false);
        var node = await CamCubeNode.StartAsync(NodeSettingsFor(new Coordinate(0, 0, 0), basePort, loop, spin, udpSpin), Parts(), NullLoggerFactory.Instance, CancellationToken.None).ConfigureAwait(false);
        await using var nodeScope = node.ConfigureAwait(false);
        using var plain = new PlainPingClient(echoPort, null, lostSlot: 1);
        using var aead = new SealedPingPong(echo: false);
        using var sealedPlain = new PlainPingClient(echoPort + 1, aead, lostSlot: 2);
        var target = new Coordinate(1, 0, 0);

        if (!await WaitForLinkAsync(node, target, TimeSpan.FromSeconds(20)).ConfigureAwait(false))
        {
            await Console.Error.WriteLineAsync("node (1,0,0) never answered a ping; is the port range free?").ConfigureAwait(false);
            return 1;
        }

        var runtime = new List<double>(count);
        var udp = new List<double>(count);
        var sealedUdp = new List<double>(count);
        var lost = new int[3];

        // This process's CPU while each path runs: node (0,0,0)'s loop for the runtime, the
        // client thread for the plain paths (the other thread of the process only waits).
        var cpu = new TimeSpan[3];
        await WarmUpAsync(warmup, warmupTime, n => RuntimePingsAsync(node, target, n, null, lost)).ConfigureAwait(false);
        await WarmUpAsync(warmup, warmupTime, n => RunSynchronously(() => plain.Run(n, null, lost))).ConfigureAwait(false);
        await WarmUpAsync(warmup, warmupTime, n => RunSynchronously(() => sealedPlain.Run(n, null, lost))).ConfigureAwait(false);
        Array.Clear(lost);

        for (var b = 0; b < blocks; b++)
        {
            // Each path goes first, second and third in turn.
            var n = Math.Min(perBlock, count - (b * perBlock));
            for (var step = 0; step < 3; step++)
            {
                switch ((b + step) % 3)
                {
                    case 0:
                        var cpu0 = ProcessCpu();
                        await RuntimePingsAsync(node, target, n, runtime, lost).ConfigureAwait(false);
                        cpu[0] += ProcessCpu() - cpu0;
                        break;
                    case 1:
                        var cpu1 = ProcessCpu();
                        plain.Run(n, udp, lost);
                        cpu[1] += ProcessCpu() - cpu1;
                        break;
                    default:
                        var cpu2 = ProcessCpu();
                        sealedPlain.Run(n, sealedUdp, lost);
                        cpu[2] += ProcessCpu() - cpu2;
                        break;
                }
            }
        }

        var r = LatencySummary.Of(runtime);
        var p = LatencySummary.Of(udp);
        var ps = LatencySummary.Of(sealedUdp);
        var ratio = r.Median / p.Median;
        await Console.Out.WriteLineAsync($"""

            | path                                         | pings | lost | min µs | median µs | p99 µs | max µs |
            |----------------------------------------------|------:|-----:|-------:|----------:|-------:|-------:|
            {Row($"runtime ({loopName} loop): PingService, 1 hop", r, lost[0])}
            {Row("plain UDP ping-pong (echo process)", p, lost[1])}
            {Row("plain UDP + AES-GCM open/seal (context)", ps, lost[2])}

            ratio of medians (runtime / plain UDP): {ratio.ToString("F2", CultureInfo.InvariantCulture)}  (goal <= 1.5: {(ratio <= 1.5 ? "met" : "not met")})
            ratio of 10th percentiles: {(LatencySummary.Percentile(runtime, 0.1) / LatencySummary.Percentile(udp, 0.1)).ToString("F2", CultureInfo.InvariantCulture)} (the plain path's blocking threads have a fast and a slow mode on a VM whose idle vCPUs halt; its 10th percentile is always the fast one)
            p99 ratio: {(r.P99 / p.P99).ToString("F2", CultureInfo.InvariantCulture)}
            context: runtime / plain UDP with the transport's AES-GCM on each datagram: {(r.Median / ps.Median).ToString("F2", CultureInfo.InvariantCulture)} (medians)
            deciles µs (10% .. 90%): runtime {LatencySummary.Deciles(runtime)}; plain {LatencySummary.Deciles(udp)}; plain + AES-GCM {LatencySummary.Deciles(sealedUdp)}
            {SpinReport(node)}
            CPU of this process per ping (node (0,0,0)'s side, or the plain client's) µs: runtime {Text(cpu[0].TotalMicroseconds / Math.Max(1, runtime.Count))}, plain {Text(cpu[1].TotalMicroseconds / Math.Max(1, udp.Count))}, plain + AES-GCM {Text(cpu[2].TotalMicroseconds / Math.Max(1, sealedUdp.Count))}
            """).ConfigureAwait(false);
        return 0;
    }

    /// <summary>Runs <paramref name="pings"/> in chunks until at least <paramref name="count"/> pings and <paramref name="time"/> have passed.</summary>
    private static async Task WarmUpAsync(int count, TimeSpan time, Func<int, Task> pings)
    {
        var start = TimeProvider.System.GetTimestamp();
        var done = 0;
        while (done < count || TimeProvider.System.GetElapsedTime(start) < time)
        {
            var n = done < count ? Math.Min(WarmupChunk, count - done) : WarmupChunk;
            await pings(n).ConfigureAwait(false);
            done += n;
        }
    }

    private static Task RunSynchronously(Action action)
    {
        action();
        return Task.CompletedTask;
    }

    private static string Text(int value) => value.ToString(CultureInfo.InvariantCulture);

    private static string Text(double value) => value.ToString("F1", CultureInfo.InvariantCulture);

    private static string Row(string name, LatencySummary s, int lost) => string.Create(
        CultureInfo.InvariantCulture,
        $"| {name,-44} | {s.Count,5} | {lost,4} | {s.Min,6:F1} | {s.Median,9:F1} | {s.P99,6:F1} | {s.Max,6:F1} |");

    private static async Task<bool> WaitForLinkAsync(CamCubeNode node, Coordinate target, TimeSpan limit)
    {
        var start = TimeProvider.System.GetTimestamp();
        while (TimeProvider.System.GetElapsedTime(start) < limit)
        {
            var task = await node.Loop.InvokeAsync(() => node.Node.GetService<PingService>()!.PingAsync(target, TimeSpan.FromMilliseconds(500))).ConfigureAwait(false);
            if (!(await task.ConfigureAwait(false)).Lost)
            {
                return true;
            }

            await Task.Delay(TimeSpan.FromMilliseconds(100), TimeProvider.System).ConfigureAwait(false);
        }

        return false;
    }

    /// <summary>
    /// One ping at a time, as the plain client does: a series that the node's loop runs by itself
    /// (each request leaves from the previous reply's delivery); the RTT is PingService's own (loop
    /// to loop).
    /// </summary>
    private static async Task RuntimePingsAsync(CamCubeNode node, Coordinate target, int count, List<double>? rtts, int[] lost)
    {
        var ping = node.Node.GetService<PingService>()!;
        var task = await node.Loop.InvokeAsync(() => ping.PingSeriesAsync(target, count, TimeSpan.FromSeconds(1))).ConfigureAwait(false);
        foreach (var reply in await task.ConfigureAwait(false))
        {
            if (reply.Lost || reply.OutboundHops != 1)
            {
                lost[0]++;
                continue;
            }

            rtts?.Add(reply.RoundTripTime.TotalMicroseconds);
        }
    }

    /// <summary>A connected UDP socket: send a sequence number, block for the echo; with an AEAD, seal before sending and open the echo.</summary>
    private sealed class PlainPingClient(int echoPort, SealedPingPong? aead, int lostSlot) : IDisposable
    {
        private readonly Socket _socket = new(AddressFamily.InterNetwork, SocketType.Dgram, ProtocolType.Udp);
        private readonly byte[] _send = new byte[s_datagramBytes];
        private readonly byte[] _receive = new byte[65_536];
        private uint _sequence;
        private bool _connected;

        public void Run(int count, List<double>? rtts, int[] lost)
        {
            if (!_connected)
            {
                _socket.Connect(new IPEndPoint(IPAddress.Loopback, echoPort));
                _socket.ReceiveTimeout = 1000;
                _connected = true;
            }

            for (var i = 0; i < count; i++)
            {
                var sequence = ++_sequence;
                var start = TimeProvider.System.GetTimestamp();
                BinaryPrimitives.WriteUInt32BigEndian(_send, sequence);
                aead?.Seal(_send);
                _socket.Send(_send);
                if (!ReceiveEcho(sequence))
                {
                    lost[lostSlot]++;
                    continue;
                }

                var rtt = TimeProvider.System.GetElapsedTime(start);
                rtts?.Add(rtt.TotalMicroseconds);
            }
        }

        public void Dispose() => _socket.Dispose();

        private bool ReceiveEcho(uint sequence)
        {
            while (true)
            {
                int length;
                try
                {
                    length = _socket.Receive(_receive);
                }
                catch (SocketException ex) when (ex.SocketErrorCode is SocketError.TimedOut or SocketError.WouldBlock)
                {
                    return false;
                }

                if (length == s_datagramBytes && BinaryPrimitives.ReadUInt32BigEndian(_receive) == sequence)
                {
                    return aead is null || aead.TryOpen(_receive.AsSpan(0, length));
                }
            }
        }
    }
}
