using System.Globalization;
using CamCube.Hosting;
using Microsoft.Extensions.Logging;

namespace CamCube.Cli.Nodes;

/// <summary>
/// The options of `camcube node` (<c>--shape</c>, <c>--heartbeat-ms</c>, ...) as the configuration
/// settings they stand for (<c>CamCube:Shape</c>, <c>CamCube:HeartbeatInterval</c>, ...): the node
/// itself reads only settings, checked by CamCube.Hosting, the same as any node program's.
/// </summary>
internal static class NodeArguments
{
    /// <summary>The options that take a value.</summary>
    public static readonly string[] ValueOptions =
    [
        "--shape", "--coord", "--base-port", "--host", "--peers", "--key-file", "--control-socket",
        "--memcached-port", "--memcached-host", "--kv-port", "--kv-host", "--kv-storage", "--kv-dir", "--kv-delivery", "--kv-value-max", "--kv-durability", "--kv-rereplication-delay-s", "--heartbeat-ms", "--timeout-ms", "--rate-limit-mbps", "--seed", "--log-level",
        "--loop", "--loop-spin-us", "--udp-spin-us",
    ];

    /// <summary>The options that take no value.</summary>
    public static readonly string[] FlagOptions = ["--insecure", "--no-udp-gso", "--exit-with-stdin", "--kv-cache"];

    private static readonly string[] s_sections = ["--CamCube:", "--Memcached:", "--KeyValue:", "--Logging:"];

    /// <summary>Splits the arguments into options and settings given as such (<c>--CamCube:Seed=7</c> or <c>--CamCube:Seed 7</c>).</summary>
    public static (List<string> Options, List<string> Settings) Split(IReadOnlyList<string> args)
    {
        var options = new List<string>();
        var settings = new List<string>();
        for (var i = 0; i < args.Count; i++)
        {
            if (!s_sections.Any(s => args[i].StartsWith(s, StringComparison.OrdinalIgnoreCase)))
            {
                options.Add(args[i]);
                continue;
            }

            settings.Add(args[i]);
            if (!args[i].Contains('=', StringComparison.Ordinal))
            {
                settings.Add(i + 1 < args.Count ? args[++i] : throw new UsageException($"{args[i]}: give a value, such as {args[i]}=VALUE."));
            }
        }

        return (options, settings);
    }

    /// <summary>The settings the options stand for.</summary>
    /// <exception cref="UsageException">An option was given more than once, or a number or level is not one.</exception>
    public static Dictionary<string, string?> Settings(ArgumentReader reader)
    {
        var settings = new Dictionary<string, string?>(StringComparer.OrdinalIgnoreCase);
        void Copy(string option, string setting)
        {
            if (reader.Single(option) is { } value)
            {
                settings[setting] = value;
            }
        }

        void Duration(string option, string setting, long ticksPerUnit)
        {
            if (reader.Single(option) is { } value)
            {
                if (!long.TryParse(value, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var number))
                {
                    throw new UsageException($"{option}: '{value}' is not a whole number.");
                }

                // A number a duration cannot hold (TimeSpan's limit, about 29,000 years) is refused
                // here, before the conversion would overflow.
                var largest = TimeSpan.MaxValue.Ticks / ticksPerUnit;
                settings[setting] = number >= -largest && number <= largest
                    ? TimeSpan.FromTicks(number * ticksPerUnit).ToString("c", CultureInfo.InvariantCulture)
                    : throw new UsageException($"{option}: '{value}' is outside what a duration holds, -{largest} to {largest}.");
            }
        }

        var node = CamCubeNodeOptions.SectionName + ":";
        Copy("--shape", node + nameof(CamCubeNodeOptions.Shape));
        Copy("--coord", node + nameof(CamCubeNodeOptions.Coordinate));
        Copy("--base-port", node + nameof(CamCubeNodeOptions.BasePort));
        Copy("--host", node + nameof(CamCubeNodeOptions.Host));
        Copy("--peers", node + nameof(CamCubeNodeOptions.Peers));
        Copy("--key-file", node + nameof(CamCubeNodeOptions.KeyFile));
        Copy("--control-socket", node + nameof(CamCubeNodeOptions.ControlSocket));
        Copy("--rate-limit-mbps", node + nameof(CamCubeNodeOptions.RateLimitMegabitsPerSecond));
        Copy("--seed", node + nameof(CamCubeNodeOptions.Seed));
        Copy("--loop", node + nameof(CamCubeNodeOptions.Loop));
        Copy("--memcached-port", ReferenceServices.MemcachedSection + ":Port");
        Copy("--memcached-host", ReferenceServices.MemcachedSection + ":Host");
        Copy("--kv-port", KeyValueNodeSettings.Section + ":Port");
        Copy("--kv-host", KeyValueNodeSettings.Section + ":Host");
        Copy("--kv-storage", KeyValueNodeSettings.Section + ":Storage");
        Copy("--kv-dir", KeyValueNodeSettings.Section + ":Directory");
        Copy("--kv-delivery", KeyValueNodeSettings.Section + ":Delivery");
        Copy("--kv-value-max", KeyValueNodeSettings.Section + ":ValueBytesMax");
        Copy("--kv-durability", KeyValueNodeSettings.Section + ":Durability");
        Duration("--heartbeat-ms", node + nameof(CamCubeNodeOptions.HeartbeatInterval), TimeSpan.TicksPerMillisecond);
        Duration("--timeout-ms", node + nameof(CamCubeNodeOptions.HeartbeatTimeout), TimeSpan.TicksPerMillisecond);
        Duration("--loop-spin-us", node + nameof(CamCubeNodeOptions.LoopIdleSpin), TimeSpan.TicksPerMicrosecond);
        Duration("--udp-spin-us", node + nameof(CamCubeNodeOptions.UdpSpinAfterSend), TimeSpan.TicksPerMicrosecond);
        Duration("--kv-rereplication-delay-s", KeyValueNodeSettings.Section + ":ReReplicationDelay", TimeSpan.TicksPerSecond);
        if (reader.Single("--log-level") is { } level)
        {
            settings["Logging:LogLevel:Default"] = Enum.TryParse<LogLevel>(level, ignoreCase: true, out _)
                ? level
                : throw new UsageException($"--log-level: '{level}' is not one of Trace, Debug, Information, Warning, Error, Critical, None.");
        }

        if (reader.Flag("--insecure"))
        {
            settings[node + nameof(CamCubeNodeOptions.Insecure)] = "true";
        }

        if (reader.Flag("--exit-with-stdin"))
        {
            settings[node + nameof(CamCubeNodeOptions.ExitWithStdin)] = "true";
        }

        if (reader.Flag("--kv-cache"))
        {
            settings[KeyValueNodeSettings.Section + ":CacheReadsStore"] = "true";
        }

        if (reader.Flag("--no-udp-gso"))
        {
            settings[node + nameof(CamCubeNodeOptions.UdpSegmentationOffload)] = "false";
        }

        return settings;
    }
}
