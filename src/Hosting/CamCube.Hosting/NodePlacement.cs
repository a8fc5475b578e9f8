using System.Globalization;
using System.Net;
using CamCube.Transport.Udp;

namespace CamCube.Hosting;

/// <summary>
/// Where a node is and how it finds its neighbours, resolved from <see cref="CamCubeNodeOptions"/>:
/// the one place that turns the options' text into a shape, a coordinate and an addressing, and
/// says exactly which setting is wrong when one is.
/// </summary>
/// <param name="Shape">The torus.</param>
/// <param name="Self">This server's coordinate.</param>
/// <param name="Addressing">How this node finds every server's UDP endpoint.</param>
internal sealed record NodePlacement(TorusShape Shape, Coordinate Self, UdpPeerAddressing Addressing)
{
    /// <summary>The longest path a Unix socket can be bound to, in bytes (sun_path is 108 with its terminating zero).</summary>
    public const int SocketPathBytesMax = 107;

    /// <summary>Resolves and checks every setting.</summary>
    /// <exception cref="CamCubeConfigurationException">A setting is missing, malformed or out of range; the message names it.</exception>
    public static NodePlacement Resolve(CamCubeNodeOptions options)
    {
        if (options.BindingError is { } bindingError)
        {
            throw new CamCubeConfigurationException(bindingError);
        }

        var shape = ParseShape(Required(options.Shape, nameof(options.Shape)));
        var coordinateText = Required(options.Coordinate, nameof(options.Coordinate));
        var self = coordinateText == "auto" ? CoordinateFromHostName(shape) : ParseCoordinate(coordinateText, shape);
        var addressing = ResolveAddressing(options, shape);
        CheckTiming(options);
        CheckFiles(options);
        return new NodePlacement(shape, self, addressing);
    }

    /// <summary>The configuration key of an option, as a user writes it: <c>CamCube:BasePort</c>.</summary>
    public static string Key(string property) => CamCubeNodeOptions.SectionName + ":" + property;

    private static UdpPeerAddressing ResolveAddressing(CamCubeNodeOptions options, TorusShape shape)
    {
        if (options.Peers is { } peers)
        {
            if (options.BasePort is not null)
            {
                throw new CamCubeConfigurationException($"{Key(nameof(options.Peers))} and {Key(nameof(options.BasePort))} both given: use one (a host-name pattern, or a base port on one host).");
            }

            if (string.IsNullOrWhiteSpace(peers))
            {
                throw new CamCubeConfigurationException($"{Key(nameof(options.Peers))}: empty; give a host-name pattern such as 'cc-{{x}}-{{y}}-{{z}}:7000', a base port, or address+port.");
            }

            try
            {
                return UdpPeerAddressing.Parse(peers);
            }
            catch (FormatException ex)
            {
                throw new CamCubeConfigurationException($"{Key(nameof(options.Peers))}: {ex.Message}", ex);
            }
        }

        if (!IPAddress.TryParse(options.Host, out var address))
        {
            throw new CamCubeConfigurationException($"{Key(nameof(options.Host))}: '{options.Host}' is not an IP address (use {Key(nameof(options.Peers))} with a pattern for host names).");
        }

        var basePort = options.BasePort ?? CamCubeNodeOptions.DefaultBasePort;
        InRange(basePort, 1, 65_535, nameof(options.BasePort));
        if (basePort + shape.ServerCount - 1 > 65_535)
        {
            throw new CamCubeConfigurationException($"{Key(nameof(options.BasePort))} {basePort}: the {shape.ServerCount} servers of {shape} need ports {basePort} to {basePort + shape.ServerCount - 1}, past 65535.");
        }

        return UdpPeerAddressing.FromBasePort(basePort, address);
    }

    private static void CheckTiming(CamCubeNodeOptions options)
    {
        InRange(options.HeartbeatInterval, TimeSpan.FromMilliseconds(1), CamCubeNodeOptions.HeartbeatIntervalMax, nameof(options.HeartbeatInterval));
        var timeout = options.EffectiveHeartbeatTimeout;
        InRange(timeout, TimeSpan.FromMilliseconds(2), CamCubeNodeOptions.HeartbeatTimeoutMax, nameof(options.HeartbeatTimeout));
        if (timeout <= options.HeartbeatInterval)
        {
            throw new CamCubeConfigurationException($"{Key(nameof(options.HeartbeatTimeout))} {timeout} must be longer than {Key(nameof(options.HeartbeatInterval))} {options.HeartbeatInterval}.");
        }

        InRange(options.RateLimitMegabitsPerSecond, 0, 1_000_000, nameof(options.RateLimitMegabitsPerSecond));
        InRange(options.PostedItemsMax, 1, CamCubeNodeOptions.PostedItemsMaxLimit, nameof(options.PostedItemsMax));
        InRange(options.DropNoticesPerSecondMax, 0, CamCubeNodeOptions.DropNoticesPerSecondMaxLimit, nameof(options.DropNoticesPerSecondMax));
        InRange(options.LoopIdleSpin, TimeSpan.Zero, CamCubeNodeOptions.LoopIdleSpinMax, nameof(options.LoopIdleSpin));
        InRange(options.UdpSpinAfterSend, TimeSpan.Zero, UdpEventLoop.SpinAfterSendMax, nameof(options.UdpSpinAfterSend));
        if (options.LoopIdleSpin > TimeSpan.Zero && options.EffectiveLoop != NodeLoopKind.Threaded)
        {
            throw new CamCubeConfigurationException($"{Key(nameof(options.LoopIdleSpin))}: only a threaded loop spins for work (the udp loop watches its socket after a send, {Key(nameof(options.UdpSpinAfterSend))}); set {Key(nameof(options.Loop))} to Threaded.");
        }
    }

    private static void CheckFiles(CamCubeNodeOptions options)
    {
        if (options.KeyFile is { } keyFile && !File.Exists(keyFile))
        {
            throw new CamCubeConfigurationException($"{Key(nameof(options.KeyFile))}: '{keyFile}' does not exist. {ClusterKey.HowToProvide}");
        }

        if (options.ControlSocket is { } socket && System.Text.Encoding.UTF8.GetByteCount(socket) > SocketPathBytesMax)
        {
            throw new CamCubeConfigurationException($"{Key(nameof(options.ControlSocket))}: '{socket}' is longer than a Unix socket path may be ({SocketPathBytesMax} bytes); choose a shorter path.");
        }
    }

    private static TorusShape ParseShape(string text)
    {
        try
        {
            return TorusShape.Parse(text);
        }
        catch (Exception ex) when (ex is FormatException or ArgumentOutOfRangeException)
        {
            throw new CamCubeConfigurationException($"{Key(nameof(CamCubeNodeOptions.Shape))}: {ex.Message.Split('\n')[0].Trim()}", ex);
        }
    }

    private static Coordinate ParseCoordinate(string text, TorusShape shape)
    {
        var key = Key(nameof(CamCubeNodeOptions.Coordinate));
        if (!Coordinate.TryParse(text, out var coordinate))
        {
            throw new CamCubeConfigurationException($"{key}: '{text}' is not a coordinate; expected x,y,z such as 1,2,0, or auto.");
        }

        return shape.Contains(coordinate)
            ? coordinate
            : throw new CamCubeConfigurationException($"{key}: {coordinate} is outside the torus {shape}; x, y, z must be at most {shape.X - 1}, {shape.Y - 1}, {shape.Z - 1}.");
    }

    /// <summary>`auto`: from a host name such as cc-1-2-0, or a StatefulSet ordinal such as camcube-13.</summary>
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

        throw new CamCubeConfigurationException($"{Key(nameof(CamCubeNodeOptions.Coordinate))} auto: host name '{host}' ends neither in -x-y-z nor in an ordinal -N below {shape.ServerCount}.");
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

    private static string Required(string? value, string property) =>
        value ?? throw new CamCubeConfigurationException(
            $"{Key(property)} is required (in appsettings.json, --{Key(property)}=..., or {CamCubeNodeOptions.SectionName.ToUpperInvariant()}__{property.ToUpperInvariant()} in the environment).");

    private static void InRange<T>(T value, T min, T max, string property)
        where T : IComparable<T>
    {
        if (value.CompareTo(min) < 0 || value.CompareTo(max) > 0)
        {
            throw new CamCubeConfigurationException(string.Create(CultureInfo.InvariantCulture, $"{Key(property)}: {value} is not from {min} to {max}."));
        }
    }
}
