using System.Globalization;
using CamCube.Services;
using CamCube.Services.Diagnostics;
using CamCube.Transport;
using CamCube.Transport.Faults;

namespace CamCube.Hosting.Control;

/// <summary>The commands of a node's control socket and the JSON they answer with.</summary>
internal static class ControlCommands
{
    private const int PingsPerSeriesMax = ControlCommandLimits.PingsPerSeriesMax;

    /// <summary>The names of the built-in commands.</summary>
    public static readonly IReadOnlySet<string> BuiltIn = new HashSet<string>(["status", "health", "ping", "pingall", "probe", "faults", "cut", "restore", "stop"], StringComparer.Ordinal);

    private const double FaultDelayMillisecondsMax = ControlCommandLimits.FaultDelayMillisecondsMax;

    public static async Task<(string Response, bool Stop)> HandleAsync(CamCubeNode node, string line, CancellationToken cancellationToken)
    {
        var words = line.Split(' ', StringSplitOptions.RemoveEmptyEntries);
        if (words.Length == 0)
        {
            return (Error("empty request; commands: status, health, ping <x,y,z> [count] [timeoutMs], pingall [timeoutMs], probe <key> [timeoutMs], faults [drop=P] [delay-ms=D] [duplicate=P] [reorder=P], cut <link>, restore <link>, stop"), false);
        }

        try
        {
            return words[0] switch
            {
                "status" => (await StatusAsync(node).ConfigureAwait(false), false),
                "health" => (await HealthAsync(node, cancellationToken).ConfigureAwait(false), false),
                "ping" when words.Length >= 2 => (await PingAsync(node, words, cancellationToken).ConfigureAwait(false), false),
                "pingall" => (await PingAllAsync(node, TimeoutArgument(words, 1), cancellationToken).ConfigureAwait(false), false),
                "probe" when words.Length >= 2 => (await ProbeAsync(node, words[1], TimeoutArgument(words, 2)).ConfigureAwait(false), false),
                "stop" => (ControlJson.Write(new Acknowledgement { Ok = true }, ControlJsonContext.Default.Acknowledgement), true),
                "faults" => (await SetFaultsAsync(node, words).ConfigureAwait(false), false),
                "cut" or "restore" when words.Length == 2 => (await CutAsync(node, words[1], cut: words[0] == "cut").ConfigureAwait(false), false),
                var name when node.Parts.Commands.TryGetValue(name, out var handler) => (await RunAsync(name, handler, node, words, cancellationToken).ConfigureAwait(false), false),
                _ => (Error($"unknown or incomplete command '{words[0]}'; commands: status, health, ping, pingall, probe, faults, cut, restore, stop"), false),
            };
        }
        catch (FormatException ex)
        {
            return (Error(ex.Message), false);
        }
    }

    private static async Task<string> RunAsync(string name, ControlCommandHandler handler, CamCubeNode node, string[] words, CancellationToken cancellationToken)
    {
        string result;
        try
        {
            result = await handler(node, words[1..], cancellationToken).ConfigureAwait(false);
        }
        catch (TimeoutException ex)
        {
            return Error($"{name}: {ex.Message}");
        }

        return ControlJson.Write(new CommandResult { Command = name, Result = result }, ControlJsonContext.Default.CommandResult);
    }

    public static string Error(string message) => ControlJson.Error(message);

    private static TimeSpan TimeoutArgument(string[] words, int index) =>
        words.Length > index ? TimeSpan.FromMilliseconds(PositiveInt(words[index], "timeoutMs")) : TimeSpan.FromSeconds(2);

    private static int PositiveInt(string text, string name) =>
        int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var value) && value > 0
            ? value
            : throw new FormatException($"{name} '{text}' is not a positive whole number");

    private static async Task<string> StatusAsync(CamCubeNode node)
    {
        var snapshot = await node.Loop.InvokeAsync(() =>
        {
            var n = node.Node;
            var links = new List<string>();
            for (var d = 0; d < LinkDirections.Count; d++)
            {
                if (n.IsLinkUp((LinkDirection)d))
                {
                    links.Add(((LinkDirection)d).ToShortName());
                }
            }

            long sent = 0, received = 0;
            foreach (var c in n.Counters.Links)
            {
                sent += c.PacketsSent;
                received += c.PacketsReceived;
            }

            var drops = Enum.GetValues<DropReason>().Select(r => (r.ToString(), n.Counters.Dropped(r))).Where(d => d.Item2 > 0).ToArray();
            return (links, n.Reachability.ReachableCount, sent, received, drops, n.IsRunning);
        }).ConfigureAwait(false);

        var t = node.Transport;
        var f = node.Faults;
        return ControlJson.Write(
            new NodeStatus
            {
                Self = Format(node.Self),
                Shape = node.Shape.ToString(),
                Pid = Environment.ProcessId,
                Running = snapshot.IsRunning,
                UptimeSeconds = Math.Round(node.Uptime.TotalSeconds, 1),
                LinksUp = snapshot.links.Count,
                LinkCount = node.Shape.LinkCount,
                Links = snapshot.links,
                Reachable = snapshot.ReachableCount,
                FramesSent = snapshot.sent,
                FramesReceived = snapshot.received,
                Dropped = snapshot.drops.ToDictionary(d => d.Item1, d => d.Item2),
                TransportDropped = new TransportDrops(t.DroppedUnknownSender, t.DroppedBadTag, t.DroppedReplay, t.DroppedMalformed),
                Udp = t.LocalEndPoint?.ToString(),
                Faults = new FaultCounters(f.FramesDropped, f.FramesDuplicated, f.FramesReordered, f.FramesDroppedByCut),
                Listeners = new Dictionary<string, string>(node.Listeners),
            },
            ControlJsonContext.Default.NodeStatus);
    }

    private static async Task<string> HealthAsync(CamCubeNode node, CancellationToken cancellationToken)
    {
        var report = node.Parts.Health is { } health
            ? await health(cancellationToken).ConfigureAwait(false)
            : await Health.CamCubeNodeHealthCheck.ReportAsync(node, cancellationToken).ConfigureAwait(false);
        return ControlJson.Write(
            new HealthResult
            {
                Status = report.Status.ToString(),
                Checks = report.Entries.Select(e => new HealthCheckLine(e.Key, e.Value.Status.ToString(), e.Value.Description)).ToArray(),
            },
            ControlJsonContext.Default.HealthResult);
    }

    private static async Task<string> PingAsync(CamCubeNode node, string[] words, CancellationToken cancellationToken)
    {
        var target = ParseCoordinate(words[1], node.Shape);
        var count = words.Length > 2 ? PositiveInt(words[2], "count") : 1;
        var timeout = TimeoutArgument(words, 3);
        // Series on the node's loop, each request leaving as the previous reply arrives, of at most
        // PingsPerSeriesMax pings each: when the asker goes away (Ctrl-C on 'camcube ping'), the
        // control socket cancels, and the pinging stops at the end of the series under way.
        var replies = new List<PingReply>(Math.Min(count, PingsPerSeriesMax));
        while (replies.Count < count)
        {
            cancellationToken.ThrowIfCancellationRequested();
            var series = Math.Min(count - replies.Count, PingsPerSeriesMax);
            var task = await node.Loop.InvokeAsync(() => node.Node.GetService<PingService>()!.PingSeriesAsync(target, series, timeout)).ConfigureAwait(false);
            replies.AddRange(await task.WaitAsync(cancellationToken).ConfigureAwait(false));
        }

        var answered = replies.Where(r => !r.Lost).ToArray();
        var rtts = answered.Select(r => r.RoundTripTime.TotalMicroseconds).Order().ToArray();
        return ControlJson.Write(
            new PingResult
            {
                From = Format(node.Self),
                To = Format(target),
                Hops = answered.Length > 0 ? answered[0].OutboundHops : null,
                ReturnHops = answered.Length > 0 ? answered[0].ReturnHops : null,
                RttMicroseconds = answered.Length > 0 ? new RoundTripTimes(Math.Round(rtts[0], 1), Math.Round(rtts[rtts.Length / 2], 1), Math.Round(rtts[^1], 1)) : null,
                Sent = replies.Count,
                Lost = replies.Count - answered.Length,
            },
            ControlJsonContext.Default.PingResult);
    }

    private static async Task<string> PingAllAsync(CamCubeNode node, TimeSpan timeout, CancellationToken cancellationToken)
    {
        var shape = node.Shape;
        var tasks = await node.Loop.InvokeAsync(() =>
        {
            var ping = node.Node.GetService<PingService>()!;
            var list = new List<Task<PingReply>>();
            for (long i = 0; i < shape.ServerCount; i++)
            {
                list.Add(ping.PingAsync(shape.CoordinateAt(i), timeout));
            }

            return list;
        }).ConfigureAwait(false);
        var replies = await Task.WhenAll(tasks).WaitAsync(cancellationToken).ConfigureAwait(false);
        return ControlJson.Write(
            new PingAllResult { Reached = replies.Count(r => !r.Lost), Lost = replies.Where(r => r.Lost).Select(r => Format(r.Target)).ToArray() },
            ControlJsonContext.Default.PingAllResult);
    }

    private static async Task<string> ProbeAsync(CamCubeNode node, string key, TimeSpan timeout)
    {
        var keyCoordinate = node.Node.KeySpace.KeyCoordinateOf(Key.FromString(key));
        var task = await node.Loop.InvokeAsync(() => node.Node.GetService<KeyProbeService>()!.FindRootAsync(keyCoordinate, timeout)).ConfigureAwait(false);
        var root = await task.ConfigureAwait(false);
        return ControlJson.Write(
            new ProbeResult { Key = key, KeyCoordinate = keyCoordinate.ToString(), Root = root is { } r ? Format(r) : null },
            ControlJsonContext.Default.ProbeResult);
    }

    /// <summary>`faults drop=0.1 delay-ms=5 duplicate=0 reorder=0`: replaces the node's random faults (no arguments: none).</summary>
    private static async Task<string> SetFaultsAsync(CamCubeNode node, string[] words)
    {
        var faults = FaultOptions.None;
        foreach (var word in words.Skip(1))
        {
            var parts = word.Split('=', 2);
            if (parts.Length != 2 || !double.TryParse(parts[1], NumberStyles.Float, CultureInfo.InvariantCulture, out var value) || !(value >= 0))
            {
                throw new FormatException($"'{word}' is not name=value with a non-negative number (drop, duplicate, reorder are probabilities; delay-ms is milliseconds)");
            }

            if (parts[0] == "delay-ms" && value > FaultDelayMillisecondsMax)
            {
                throw new FormatException(string.Create(CultureInfo.InvariantCulture, $"delay-ms {parts[1]} is more than {FaultDelayMillisecondsMax} milliseconds"));
            }

            faults = parts[0] switch
            {
                "drop" => faults with { DropProbability = value },
                "duplicate" => faults with { DuplicateProbability = value },
                "reorder" => faults with { ReorderProbability = value },
                "delay-ms" => faults with { Delay = TimeSpan.FromMilliseconds(value) },
                _ => throw new FormatException($"unknown fault '{parts[0]}'; use drop, duplicate, reorder, delay-ms"),
            };
        }

        try
        {
            faults.Validate();
        }
        catch (ArgumentOutOfRangeException ex)
        {
            throw new FormatException(ex.Message.Split('\n')[0]);
        }

        await node.Loop.InvokeAsync(() => node.Faults.Faults = faults).ConfigureAwait(false);
        return ControlJson.Write(
            new FaultsResult { Drop = faults.DropProbability, Duplicate = faults.DuplicateProbability, Reorder = faults.ReorderProbability, DelayMs = faults.Delay.TotalMilliseconds },
            ControlJsonContext.Default.FaultsResult);
    }

    /// <summary>`cut +x` / `restore +x`: cuts or repairs this node's end of a link (the runtime sees the cable go).</summary>
    private static async Task<string> CutAsync(CamCubeNode node, string linkText, bool cut)
    {
        var link = Enumerable.Range(0, LinkDirections.Count).Select(d => (LinkDirection)d).FirstOrDefault(d => d.ToShortName() == linkText, (LinkDirection)(-1));
        if ((int)link < 0 || !node.Shape.HasLink(link))
        {
            throw new FormatException($"'{linkText}' is not a link of this node (+x, -x, +y, -y, +z, -z that its shape has)");
        }

        await node.Loop.InvokeAsync(() =>
        {
            if (cut)
            {
                node.Faults.CutLink(link);
            }
            else
            {
                node.Faults.RestoreLink(link);
            }

            return true;
        }).ConfigureAwait(false);
        return ControlJson.Write(
            cut ? new LinkChangeResult { Cut = link.ToShortName() } : new LinkChangeResult { Restored = link.ToShortName() },
            ControlJsonContext.Default.LinkChangeResult);
    }

    private static Coordinate ParseCoordinate(string text, TorusShape shape) =>
        Coordinate.TryParse(text, out var c) && shape.Contains(c)
            ? c
            : throw new FormatException($"'{text}' is not a coordinate of {shape} (expected x,y,z)");

    internal static string Format(Coordinate c) => string.Create(CultureInfo.InvariantCulture, $"{c.X},{c.Y},{c.Z}");
}
