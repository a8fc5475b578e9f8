using System.Diagnostics;
using System.Globalization;
using System.Text;
using CamCube.Hosting;
using CamCube.Packets;
using CamCube.Services.Diagnostics;
using CamCube.Transport;
using CamCube.Transport.Udp;
using Microsoft.Extensions.Logging.Abstractions;

namespace CamCube.UdpDrivers;

/// <summary>
/// The link benchmark (camcubeos 4.2.1) on all 27 nodes of a 3x3x3 cube over UDP on loopback, in
/// this process (each node with its own socket and loop thread, plus a receive thread with
/// <c>--loop threaded</c>, as
/// <c>camcube cube up --in-process</c>), for L = 1..6 links and full-size frames, against raw UDP
/// sender/receiver pairs with the same datagram size, measured before and after the cube runs.
/// </summary>
internal static class LinkDriver
{
    private const int DefaultBasePort = 29_100;
    private const int DefaultRawPort = 29_200;
    private static readonly TorusShape s_shape = new(3, 3, 3);

    /// <summary>
    /// The default of <c>--warmup-seconds</c>: how long the cube runs the benchmark on all six
    /// links, uncounted, before the measured runs. .NET recompiles hot methods with full
    /// optimisation only after they have run a while, in the background; without a warm-up the
    /// first measured run (L = 1) timed partly unoptimised code.
    /// </summary>
    private const int WarmupSecondsDefault = 3;

    /// <summary>The datagram of one full-size frame: header, length prefix, the frame (a whole pooled packet), tag.</summary>
    private static readonly int s_datagramBytes = DatagramSizes.FullFrame;

    public static async Task<int> RunAsync(DriverArguments arguments)
    {
        var seconds = arguments.Int("seconds", 5);
        var warmupSeconds = arguments.Int("warmup-seconds", WarmupSecondsDefault, min: 0);
        var rawSeconds = arguments.Int("raw-seconds", 3);
        var basePort = arguments.Int("base-port", DefaultBasePort);
        var rawPort = arguments.Int("raw-port", DefaultRawPort);
        var heartbeatTimeout = TimeSpan.FromMilliseconds(arguments.Int("heartbeat-timeout-ms", 350));
        var loop = PingDriver.LoopKind(arguments);
        var linksMax = Math.Clamp(arguments.Int("links-max", LinkDirections.Count), 1, LinkDirections.Count);
        var udpSpin = TimeSpan.FromMicroseconds(PingDriver.UdpSpinMicroseconds(arguments));
        var segmentation = arguments.Int("udp-gso", 1, min: 0) != 0;

        await Console.Out.WriteLineAsync(await MachineInfo.DescribeAsync().ConfigureAwait(false)).ConfigureAwait(false);
        await Console.Out.WriteLineAsync(string.Create(CultureInfo.InvariantCulture, $"links: {s_shape} cube in one process, {(loop == NodeLoopKind.Udp ? "udp" : "threaded")} loops (--udp-spin-us {udpSpin.TotalMicroseconds}), UDP segmentation offload {(segmentation ? "where the kernel has it" : "off")} (--udp-gso 1|0), {seconds} s per L, frames of {PacketPool.DefaultPacketCapacityBytes} bytes in {s_datagramBytes}-byte datagrams; raw UDP {rawSeconds} s per measurement")).ConfigureAwait(false);

        var raw = new List<RawUdpResult>();
        foreach (var pairs in new[] { 1, 2 })
        {
            raw.Add(await RawUdp.MeasureAsync(pairs, s_datagramBytes, rawPort, TimeSpan.FromMilliseconds(500), TimeSpan.FromSeconds(rawSeconds)).ConfigureAwait(false));
        }

        Environment.SetEnvironmentVariable(ClusterKey.DefaultEnvironmentVariable, ClusterKey.CreateRandom().ToHexString());
        var nodes = new List<CamCubeNode>();
        var runs = new List<LinkRun>();
        try
        {
            for (long i = 0; i < s_shape.ServerCount; i++)
            {
                var c = s_shape.CoordinateAt(i);
                nodes.Add(await CamCubeNode.StartAsync(
                    new CamCubeNodeOptions
                    {
                        Shape = s_shape.ToString(),
                        Coordinate = string.Create(CultureInfo.InvariantCulture, $"{c.X},{c.Y},{c.Z}"),
                        BasePort = basePort,
                        HeartbeatTimeout = heartbeatTimeout,
                        Loop = loop,
                        UdpSpinAfterSend = udpSpin,
                        UdpSegmentationOffload = segmentation,
                    },
                    PingDriver.Parts(),
                    NullLoggerFactory.Instance,
                    CancellationToken.None).ConfigureAwait(false));
            }

            var converged = await WaitForConvergenceAsync(nodes, TimeSpan.FromSeconds(30)).ConfigureAwait(false);
            await Console.Out.WriteLineAsync(string.Create(CultureInfo.InvariantCulture, $"cube up: {nodes.Count} nodes, converged (all links up, all reachable) in {converged.TotalSeconds:F1} s")).ConfigureAwait(false);
            if (warmupSeconds > 0)
            {
                var warm = await RunLinksAsync(nodes, LinkDirections.Count, TimeSpan.FromSeconds(warmupSeconds)).ConfigureAwait(false);
                await Console.Out.WriteLineAsync(string.Create(CultureInfo.InvariantCulture, $"  warm-up (not counted, --warmup-seconds {warmupSeconds}): L=6, {warm.BytesPerSecond * 8 / 1e9:F2} Gbit/s")).ConfigureAwait(false);
                await Task.Delay(TimeSpan.FromSeconds(1), TimeProvider.System).ConfigureAwait(false);
            }

            for (var links = 1; links <= linksMax; links++)
            {
                runs.Add(await RunLinksAsync(nodes, links, TimeSpan.FromSeconds(seconds)).ConfigureAwait(false));
                await Console.Out.WriteLineAsync(string.Create(CultureInfo.InvariantCulture, $"  L={links}: {runs[^1].BytesPerSecond * 8 / 1e9:F2} Gbit/s")).ConfigureAwait(false);

                // Let the queues drain so a run does not count the previous run's frames.
                await Task.Delay(TimeSpan.FromSeconds(1), TimeProvider.System).ConfigureAwait(false);
            }
        }
        finally
        {
            foreach (var node in nodes)
            {
                await node.DisposeAsync().ConfigureAwait(false);
            }
        }

        foreach (var pairs in new[] { 1, 2 })
        {
            raw.Add(await RawUdp.MeasureAsync(pairs, s_datagramBytes, rawPort, TimeSpan.FromMilliseconds(500), TimeSpan.FromSeconds(rawSeconds)).ConfigureAwait(false));
        }

        await Console.Out.WriteLineAsync(Report(raw, runs)).ConfigureAwait(false);
        return 0;
    }

    private static string Report(List<RawUdpResult> raw, List<LinkRun> runs)
    {
        var best = raw.MaxBy(r => r.BytesPerSecond);
        var s = new StringBuilder();
        s.AppendLine().AppendLine("raw UDP on loopback (sender thread -> receiver thread per pair, blocking sockets, 4 MiB buffers):");
        s.AppendLine("| when   | pairs | datagram B | received Gbit/s | datagrams/s | loss  | cores busy |");
        s.AppendLine("|--------|------:|-----------:|----------------:|------------:|------:|-----------:|");
        for (var i = 0; i < raw.Count; i++)
        {
            var r = raw[i];
            s.AppendLine(string.Create(CultureInfo.InvariantCulture, $"| {(i < raw.Count / 2 ? "before" : "after"),-6} | {r.Pairs,5} | {r.DatagramBytes,10} | {r.BytesPerSecond * 8 / 1e9,15:F2} | {r.DatagramsReceived / r.Elapsed.TotalSeconds,11:F0} | {r.LossFraction,5:P0} | {r.CoresBusy,10:F2} |"));
        }

        s.AppendLine(string.Create(CultureInfo.InvariantCulture, $"reference (best raw): {best.BytesPerSecond * 8 / 1e9:F2} Gbit/s"));
        s.AppendLine().AppendLine("link benchmark, 27 nodes (delivered = sum over nodes of BytesReceived / elapsed):");
        s.AppendLine("| L | delivered Gbit/s | frames/s | fraction of raw | CPU per node (% of a core) | process cores busy | Gbit/s per busy core | links down at end |");
        s.AppendLine("|--:|-----------------:|---------:|----------------:|---------------------------:|-------------------:|---------------------:|------------------:|");
        foreach (var run in runs)
        {
            var fraction = run.BytesPerSecond / best.BytesPerSecond;
            s.AppendLine(string.Create(CultureInfo.InvariantCulture, $"| {run.Links} | {run.BytesPerSecond * 8 / 1e9,16:F2} | {run.FramesPerSecond,8:F0} | {fraction,15:P0} | {run.CoresBusy / run.Nodes * 100,26:F1} | {run.CoresBusy,18:F2} | {run.BytesPerSecond * 8 / 1e9 / run.CoresBusy,20:F2} | {run.LinksDown,17} |"));
        }

        s.AppendLine().AppendLine("transport counters per run (all nodes; host drops are the whole host's /proc/net/snmp RcvbufErrors, other processes included):");
        s.AppendLine("| L | datagrams sent | datagrams received | credit datagrams sent | credit timeouts | send errors | wake datagrams | host RcvbufErrors | segmented sends | datagrams in them |");
        s.AppendLine("|--:|---------------:|-------------------:|----------------------:|----------------:|------------:|---------------:|------------------:|----------------:|------------------:|");
        foreach (var run in runs)
        {
            var t = run.Transport;
            s.AppendLine(string.Create(CultureInfo.InvariantCulture, $"| {run.Links} | {t.DatagramsSent,14} | {t.DatagramsReceived,18} | {t.CreditDatagramsSent,21} | {t.CreditTimeouts,15} | {t.SendErrors,11} | {t.WakeDatagrams,14} | {run.Kernel.ReceiveBufferErrors,17} | {t.SegmentedSends,15} | {t.SegmentedDatagrams,17} |"));
        }

        var bestRun = runs.MaxBy(r => r.BytesPerSecond);
        var bestFraction = bestRun.BytesPerSecond / best.BytesPerSecond;
        s.AppendLine(string.Create(CultureInfo.InvariantCulture, $"best: L={bestRun.Links}, {bestFraction:P0} of raw UDP (goal >= 50%: {(bestFraction >= 0.5 ? "met" : "not met")})"));
        return s.ToString();
    }

    private static async Task<TimeSpan> WaitForConvergenceAsync(List<CamCubeNode> nodes, TimeSpan limit)
    {
        var start = TimeProvider.System.GetTimestamp();
        while (true)
        {
            var states = await Task.WhenAll(nodes.Select(n => n.Loop.InvokeAsync(() => UpLinks(n) == n.Shape.LinkCount && n.Node.Reachability.ReachableCount == n.Shape.ServerCount))).ConfigureAwait(false);
            var elapsed = TimeProvider.System.GetElapsedTime(start);
            if (states.All(s => s))
            {
                return elapsed;
            }

            if (elapsed > limit)
            {
                throw new InvalidOperationException($"the cube did not converge in {limit.TotalSeconds} s; are ports in use?");
            }

            await Task.Delay(TimeSpan.FromMilliseconds(100), TimeProvider.System).ConfigureAwait(false);
        }
    }

    private static int UpLinks(CamCubeNode node)
    {
        var up = 0;
        for (var d = 0; d < LinkDirections.Count; d++)
        {
            up += node.Node.IsLinkUp((LinkDirection)d) ? 1 : 0;
        }

        return up;
    }

    private static async Task<LinkRun> RunLinksAsync(List<CamCubeNode> nodes, int links, TimeSpan duration)
    {
        using var process = Process.GetCurrentProcess();
        var kernel0 = KernelUdpCounters.Read();
        var transport0 = TransportTotals.Of(nodes);
        var cpu0 = process.TotalProcessorTime;
        var start = TimeProvider.System.GetTimestamp();
        await Task.WhenAll(nodes.Select(n => n.Loop.InvokeAsync(() =>
        {
            n.Node.GetService<LinkBenchmarkService>()!.Start(links);
            return true;
        }))).ConfigureAwait(false);
        await Task.Delay(duration, TimeProvider.System).ConfigureAwait(false);
        var reports = await Task.WhenAll(nodes.Select(n => n.Loop.InvokeAsync(() =>
        {
            var service = n.Node.GetService<LinkBenchmarkService>()!;
            var report = service.Report();
            service.Stop();
            return (report, n.Shape.LinkCount - UpLinks(n));
        }))).ConfigureAwait(false);
        var wall = TimeProvider.System.GetElapsedTime(start);
        process.Refresh();
        var cpu = process.TotalProcessorTime - cpu0;
        var transport = TransportTotals.Of(nodes) - transport0;
        var kernel = KernelUdpCounters.Read() - kernel0;
        return new LinkRun(
            links,
            nodes.Count,
            reports.Sum(r => r.report.BytesReceived / r.report.Elapsed.TotalSeconds),
            reports.Sum(r => r.report.PacketsReceived / r.report.Elapsed.TotalSeconds),
            cpu / wall,
            reports.Sum(r => r.Item2),
            transport,
            kernel);
    }

    private readonly record struct LinkRun(int Links, int Nodes, double BytesPerSecond, double FramesPerSecond, double CoresBusy, int LinksDown, TransportTotals Transport, KernelUdpCounters Kernel);
}
