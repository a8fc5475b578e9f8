using System.Buffers;
using System.Globalization;
using System.Text;
using System.Text.Encodings.Web;
using System.Text.Json;
using CamCube.Services;
using CamCube.Services.Diagnostics;
using CamCube.Transport;

namespace CamCube.Cli.Nodes;

/// <summary>The commands of a node's control socket and the JSON they answer with.</summary>
internal static class ControlResponses
{
    /// <summary>The most pings in one series on the node's loop; a longer request runs several, one after another.</summary>
    public const int PingsPerSeriesMax = 64;

    public static async Task<(string Response, bool Stop)> HandleAsync(CamCubeNode node, string line, CancellationToken cancellationToken)
    {
        var words = line.Split(' ', StringSplitOptions.RemoveEmptyEntries);
        if (words.Length == 0)
        {
            return (Error("empty request; commands: status, ping <x,y,z> [count] [timeoutMs], pingall [timeoutMs], probe <key> [timeoutMs], faults [drop=P] [delay-ms=D] [duplicate=P] [reorder=P], cut <link>, restore <link>, stop"), false);
        }

        try
        {
            return words[0] switch
            {
                "status" => (await StatusAsync(node).ConfigureAwait(false), false),
                "ping" when words.Length >= 2 => (await PingAsync(node, words, cancellationToken).ConfigureAwait(false), false),
                "pingall" => (await PingAllAsync(node, TimeoutArgument(words, 1), cancellationToken).ConfigureAwait(false), false),
                "probe" when words.Length >= 2 => (await ProbeAsync(node, words[1], TimeoutArgument(words, 2)).ConfigureAwait(false), false),
                "stop" => (Json(w => w.WriteBoolean("ok", true)), true),
                "faults" => (await SetFaultsAsync(node, words).ConfigureAwait(false), false),
                "cut" or "restore" when words.Length == 2 => (await CutAsync(node, words[1], cut: words[0] == "cut").ConfigureAwait(false), false),
                _ => (Error($"unknown or incomplete command '{words[0]}'; commands: status, ping, pingall, probe, faults, cut, restore, stop"), false),
            };
        }
        catch (FormatException ex)
        {
            return (Error(ex.Message), false);
        }
    }

    public static string Error(string message) => Json(w => w.WriteString("error", message));

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
        return Json(w =>
        {
            w.WriteString("self", Format(node.Settings.Self));
            w.WriteString("shape", node.Settings.Shape.ToString());
            w.WriteNumber("pid", Environment.ProcessId);
            w.WriteBoolean("running", snapshot.IsRunning);
            w.WriteNumber("uptimeSeconds", Math.Round(node.Uptime.TotalSeconds, 1));
            w.WriteNumber("linksUp", snapshot.links.Count);
            w.WriteNumber("linkCount", node.Settings.Shape.LinkCount);
            w.WriteStartArray("links");
            snapshot.links.ForEach(w.WriteStringValue);
            w.WriteEndArray();
            w.WriteNumber("reachable", snapshot.ReachableCount);
            w.WriteNumber("framesSent", snapshot.sent);
            w.WriteNumber("framesReceived", snapshot.received);
            w.WriteStartObject("dropped");
            foreach (var (reason, count) in snapshot.drops)
            {
                w.WriteNumber(reason, count);
            }

            w.WriteEndObject();
            w.WriteStartObject("transportDropped");
            w.WriteNumber("unknownSender", t.DroppedUnknownSender);
            w.WriteNumber("badTag", t.DroppedBadTag);
            w.WriteNumber("replay", t.DroppedReplay);
            w.WriteNumber("malformed", t.DroppedMalformed);
            w.WriteEndObject();
            w.WriteString("udp", t.LocalEndPoint?.ToString());
            w.WriteStartObject("faults");
            w.WriteNumber("dropped", node.Faults.FramesDropped);
            w.WriteNumber("duplicated", node.Faults.FramesDuplicated);
            w.WriteNumber("reordered", node.Faults.FramesReordered);
            w.WriteNumber("droppedByCut", node.Faults.FramesDroppedByCut);
            w.WriteEndObject();
            if (node.Settings.MemcachedEndPoint is { } memcached)
            {
                w.WriteString("memcached", memcached.ToString());
            }
        });
    }

    private static async Task<string> PingAsync(CamCubeNode node, string[] words, CancellationToken cancellationToken)
    {
        var target = ParseCoordinate(words[1], node.Settings.Shape);
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
        return Json(w =>
        {
            w.WriteString("from", Format(node.Settings.Self));
            w.WriteString("to", Format(target));
            if (answered.Length > 0)
            {
                w.WriteNumber("hops", answered[0].OutboundHops);
                w.WriteNumber("returnHops", answered[0].ReturnHops);
                w.WriteStartObject("rttMicroseconds");
                w.WriteNumber("min", Math.Round(rtts[0], 1));
                w.WriteNumber("median", Math.Round(rtts[rtts.Length / 2], 1));
                w.WriteNumber("max", Math.Round(rtts[^1], 1));
                w.WriteEndObject();
            }
            else
            {
                w.WriteNull("hops");
                w.WriteNull("rttMicroseconds");
            }

            w.WriteNumber("sent", replies.Count);
            w.WriteNumber("lost", replies.Count - answered.Length);
        });
    }

    private static async Task<string> PingAllAsync(CamCubeNode node, TimeSpan timeout, CancellationToken cancellationToken)
    {
        var shape = node.Settings.Shape;
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
        return Json(w =>
        {
            w.WriteNumber("reached", replies.Count(r => !r.Lost));
            w.WriteStartArray("lost");
            foreach (var r in replies.Where(r => r.Lost))
            {
                w.WriteStringValue(Format(r.Target));
            }

            w.WriteEndArray();
        });
    }

    private static async Task<string> ProbeAsync(CamCubeNode node, string key, TimeSpan timeout)
    {
        var keyCoordinate = node.Node.KeySpace.KeyCoordinateOf(Key.FromString(key));
        var task = await node.Loop.InvokeAsync(() => node.Node.GetService<KeyProbeService>()!.FindRootAsync(keyCoordinate, timeout)).ConfigureAwait(false);
        var root = await task.ConfigureAwait(false);
        return Json(w =>
        {
            w.WriteString("key", key);
            w.WriteString("keyCoordinate", keyCoordinate.ToString());
            if (root is { } r)
            {
                w.WriteString("root", Format(r));
            }
            else
            {
                w.WriteNull("root");
            }
        });
    }

    /// <summary>`faults drop=0.1 delay-ms=5 duplicate=0 reorder=0`: replaces the node's random faults (no arguments: none).</summary>
    private static async Task<string> SetFaultsAsync(CamCubeNode node, string[] words)
    {
        var faults = Transport.Faults.FaultOptions.None;
        foreach (var word in words.Skip(1))
        {
            var parts = word.Split('=', 2);
            if (parts.Length != 2 || !double.TryParse(parts[1], NumberStyles.Float, CultureInfo.InvariantCulture, out var value) || !(value >= 0))
            {
                throw new FormatException($"'{word}' is not name=value with a non-negative number (drop, duplicate, reorder are probabilities; delay-ms is milliseconds)");
            }

            if (parts[0] == "delay-ms" && value > Cube.CubeCommand.FaultDelayMillisecondsMax)
            {
                throw new FormatException(string.Create(CultureInfo.InvariantCulture, $"delay-ms {parts[1]} is more than {Cube.CubeCommand.FaultDelayMillisecondsMax} milliseconds"));
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
        return Json(w =>
        {
            w.WriteNumber("drop", faults.DropProbability);
            w.WriteNumber("duplicate", faults.DuplicateProbability);
            w.WriteNumber("reorder", faults.ReorderProbability);
            w.WriteNumber("delayMs", faults.Delay.TotalMilliseconds);
        });
    }

    /// <summary>`cut +x` / `restore +x`: cuts or repairs this node's end of a link (the runtime sees the cable go).</summary>
    private static async Task<string> CutAsync(CamCubeNode node, string linkText, bool cut)
    {
        var link = Enumerable.Range(0, LinkDirections.Count).Select(d => (LinkDirection)d).FirstOrDefault(d => d.ToShortName() == linkText, (LinkDirection)(-1));
        if ((int)link < 0 || !node.Settings.Shape.HasLink(link))
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
        return Json(w => w.WriteString(cut ? "cut" : "restored", link.ToShortName()));
    }

    private static Coordinate ParseCoordinate(string text, TorusShape shape) =>
        Coordinate.TryParse(text, out var c) && shape.Contains(c)
            ? c
            : throw new FormatException($"'{text}' is not a coordinate of {shape} (expected x,y,z)");

    internal static string Format(Coordinate c) => string.Create(CultureInfo.InvariantCulture, $"{c.X},{c.Y},{c.Z}");

    /// <summary>Writes one JSON object, the answer format of every control socket.</summary>
    internal static string Json(Action<Utf8JsonWriter> write)
    {
        var buffer = new ArrayBufferWriter<byte>();
        using (var writer = new Utf8JsonWriter(buffer, new JsonWriterOptions { Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping }))
        {
            writer.WriteStartObject();
            write(writer);
            writer.WriteEndObject();
        }

        return Encoding.UTF8.GetString(buffer.WrittenSpan);
    }
}
