using System.Globalization;
using System.Net;
using CamCube.Transport.Udp;
using Microsoft.Extensions.Configuration;

namespace CamCube.Cli.Nodes;

/// <summary>
/// Reads <see cref="NodeSettings"/> from configuration (command line, CAMCUBE_* environment
/// variables, appsettings.json) and says exactly which value is wrong when one is.
/// </summary>
internal static class NodeSettingsReader
{
    /// <summary>The options of `camcube node`, each also a configuration key (and a CAMCUBE_ variable, upper case, dashes as underscores).</summary>
    public static readonly string[] ValueOptions =
    [
        "--shape", "--coord", "--base-port", "--host", "--peers", "--key-file", "--control-socket",
        "--memcached-port", "--memcached-host", "--heartbeat-ms", "--timeout-ms", "--rate-limit-mbps", "--seed", "--log-level",
        "--loop", "--loop-spin-us", "--udp-spin-us",
    ];

    public static readonly string[] FlagOptions = ["--insecure", "--no-udp-gso", "--exit-with-stdin"];

    public static NodeSettings Read(IConfiguration configuration)
    {
        var shape = ArgumentReader.ParseShape(Required(configuration, "shape"));
        var coordText = Required(configuration, "coord");
        var self = coordText == "auto" ? CoordinateFromHostName(shape) : ArgumentReader.ParseCoordinate("--coord", coordText, shape);
        var peers = configuration["peers"];
        UdpPeerAddressing addressing;
        if (peers is not null)
        {
            if (configuration["base-port"] is not null)
            {
                throw new UsageException("--peers and --base-port both given: use one (a host-name pattern, or a base port on one host).");
            }

            addressing = ParseAddressing(peers);
        }
        else
        {
            var host = configuration["host"] ?? "127.0.0.1";
            if (!IPAddress.TryParse(host, out var address))
            {
                throw new UsageException($"--host: '{host}' is not an IP address (use --peers with a pattern for host names).");
            }

            var basePort = Int(configuration, "base-port", NodeSettings.DefaultBasePort, 1, 65_535);
            if (basePort + shape.ServerCount - 1 > 65_535)
            {
                throw new UsageException($"--base-port {basePort}: the {shape.ServerCount} servers of {shape} need ports {basePort} to {basePort + shape.ServerCount - 1}, past 65535.");
            }

            addressing = UdpPeerAddressing.FromBasePort(basePort, address);
        }

        IPEndPoint? memcached = null;
        if (configuration["memcached-port"] is not null)
        {
            var hostText = configuration["memcached-host"] ?? "127.0.0.1";
            if (!IPAddress.TryParse(hostText, out var memcachedHost))
            {
                throw new UsageException($"--memcached-host: '{hostText}' is not an IP address.");
            }

            memcached = new IPEndPoint(memcachedHost, Int(configuration, "memcached-port", 11_211, 1, 65_535));
        }

        var heartbeat = Int(configuration, "heartbeat-ms", 100, 1, 60_000);
        var timeout = Int(configuration, "timeout-ms", heartbeat * 7 / 2, 2, 600_000);
        if (timeout <= heartbeat)
        {
            throw new UsageException($"--timeout-ms {timeout} must be longer than --heartbeat-ms {heartbeat}.");
        }

        var keyFile = configuration["key-file"];
        if (keyFile is not null && !File.Exists(keyFile))
        {
            throw new UsageException($"--key-file: '{keyFile}' does not exist. {ClusterKey.HowToProvide}");
        }

        var controlSocket = configuration["control-socket"];
        if (controlSocket is not null && System.Text.Encoding.UTF8.GetByteCount(controlSocket) > Cube.CubeLayout.SocketPathBytesMax)
        {
            throw new UsageException($"--control-socket: '{controlSocket}' is longer than a Unix socket path may be ({Cube.CubeLayout.SocketPathBytesMax} bytes); choose a shorter path.");
        }

        // Only a threaded loop spins: a spin asks for one unless --loop says otherwise.
        var spin = TimeSpan.FromMicroseconds(Int(configuration, "loop-spin-us", 0, 0, 1_000_000));
        var loop = ParseLoop(configuration["loop"] ?? (spin > TimeSpan.Zero ? "threaded" : null));
        if (spin > TimeSpan.Zero && loop != NodeLoopKind.Threaded)
        {
            throw new UsageException("--loop-spin-us: only a threaded loop spins for work (the udp loop watches its socket after a send, --udp-spin-us); use --loop threaded.");
        }

        var udpSpin = TimeSpan.FromMicroseconds(Int(configuration, "udp-spin-us", (int)NodeSettings.DefaultUdpSpinAfterSend.TotalMicroseconds, 0, (int)UdpEventLoop.SpinAfterSendMax.TotalMicroseconds));

        return new NodeSettings
        {
            Shape = shape,
            Self = self,
            Addressing = addressing,
            KeyFile = keyFile,
            Insecure = string.Equals(configuration["insecure"], "true", StringComparison.OrdinalIgnoreCase),
            ControlSocket = controlSocket,
            ExitWithStdin = string.Equals(configuration["exit-with-stdin"], "true", StringComparison.OrdinalIgnoreCase),
            MemcachedEndPoint = memcached,
            HeartbeatInterval = TimeSpan.FromMilliseconds(heartbeat),
            HeartbeatTimeout = TimeSpan.FromMilliseconds(timeout),
            RateLimitBitsPerSecond = Int(configuration, "rate-limit-mbps", 0, 0, 1_000_000) * 1_000_000L,
            Seed = Int(configuration, "seed", 1, int.MinValue, int.MaxValue),
            Loop = loop,
            LoopIdleSpin = spin,
            UdpSpinAfterSend = udpSpin,
            UdpSegmentationOffload = !string.Equals(configuration["no-udp-gso"], "true", StringComparison.OrdinalIgnoreCase),
        };
    }

    private static NodeLoopKind ParseLoop(string? text) => text switch
    {
        null or "udp" => NodeLoopKind.Udp,
        "threaded" => NodeLoopKind.Threaded,
        _ => throw new UsageException($"--loop: '{text}' is not a loop; use 'udp' (one thread runs the node and reads its socket, the default) or 'threaded' (a loop thread and a receive thread)."),
    };

    private static UdpPeerAddressing ParseAddressing(string text)
    {
        if (string.IsNullOrWhiteSpace(text))
        {
            throw new UsageException("--peers: empty; give a host-name pattern such as 'cc-{x}-{y}-{z}:7000', a base port, or address+port.");
        }

        try
        {
            return UdpPeerAddressing.Parse(text);
        }
        catch (FormatException ex)
        {
            throw new UsageException($"--peers: {ex.Message}");
        }
    }

    /// <summary>`--coord auto`: from a host name such as cc-1-2-0, or a StatefulSet ordinal such as camcube-13.</summary>
    private static Coordinate CoordinateFromHostName(TorusShape shape)
    {
        var host = Dns.GetHostName();
        var parts = host.Split('-');
        if (parts.Length >= 4 && TryInts(parts[^3..], out var xyz) && shape.Contains(new Coordinate(xyz[0], xyz[1], xyz[2])))
        {
            return new Coordinate(xyz[0], xyz[1], xyz[2]);
        }

        if (parts.Length >= 2 && long.TryParse(parts[^1], NumberStyles.None, CultureInfo.InvariantCulture, out var ordinal) && ordinal < shape.ServerCount)
        {
            return shape.CoordinateAt(ordinal);
        }

        throw new UsageException($"--coord auto: host name '{host}' ends neither in -x-y-z nor in an ordinal -N below {shape.ServerCount}.");
    }

    private static bool TryInts(string[] parts, out int[] values)
    {
        values = new int[parts.Length];
        for (var i = 0; i < parts.Length; i++)
        {
            if (!int.TryParse(parts[i], NumberStyles.None, CultureInfo.InvariantCulture, out values[i]))
            {
                return false;
            }
        }

        return true;
    }

    private static string Required(IConfiguration configuration, string key) =>
        configuration[key] ?? throw new UsageException($"--{key} is required (or CAMCUBE_{key.ToUpperInvariant().Replace('-', '_')} in the environment).");

    private static int Int(IConfiguration configuration, string key, int defaultValue, int min, int max)
    {
        var text = configuration[key];
        if (text is null)
        {
            return defaultValue;
        }

        return int.TryParse(text, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var value) && value >= min && value <= max
            ? value
            : throw new UsageException($"--{key}: '{text}' is not a whole number from {min} to {max}.");
    }
}
