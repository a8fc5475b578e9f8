using System.Globalization;
using System.Net;
using CamCube.Hosting;

namespace CamCube.Cli.Cube;

/// <summary>
/// What the supervisor tells each node of its cube, the same for an in-process node, a
/// `camcube node` process and a user's node program: the node's options, and as a process, the
/// same options as settings on its command line (<c>--CamCube:Shape=3x3x3</c>, ...).
/// </summary>
internal static class NodeLaunch
{
    /// <summary>The options of the node at <paramref name="self"/>.</summary>
    public static CamCubeNodeOptions Options(Coordinate self, CubeLayout layout, CubeOptions cube) => new()
    {
        Shape = cube.Shape.ToString(),
        Coordinate = Format(self),
        BasePort = cube.BasePort,
        KeyFile = layout.KeyFile,
        ControlSocket = layout.NodeSocket(self),
        HeartbeatInterval = cube.HeartbeatInterval,
        HeartbeatTimeout = cube.HeartbeatTimeout,
    };

    /// <summary>The memcached front-end of the node at <paramref name="self"/>, or null when the cube runs none.</summary>
    public static IPEndPoint? Memcached(Coordinate self, CubeOptions cube) =>
        cube.MemcachedBasePort is { } port ? new IPEndPoint(IPAddress.Loopback, port + (int)cube.Shape.IndexOf(self)) : null;

    /// <summary>The store's settings of the node at <paramref name="self"/>: its backend, the state directory's data for its database, its front-end, its delivery, t, and whether its cache reads it.</summary>
    public static Nodes.KeyValueNodeSettings KeyValue(Coordinate self, CubeLayout layout, CubeOptions cube) => new(
        cube.KeyValueStorage,
        layout.DataDirectory,
        cube.KeyValueBasePort is { } port ? new IPEndPoint(IPAddress.Loopback, port + (int)cube.Shape.IndexOf(self)) : null,
        Delivery: cube.KeyValueDelivery ?? Messaging.MessageDelivery.Reliable,
        ValueBytesMax: cube.KeyValueValueBytesMax ?? 0,
        CacheReadsStore: cube.KeyValueCacheReadsStore,
        Durability: cube.KeyValueDurability ?? Services.KeyValue.Storage.SqliteDurability.Synced,
        ReReplicationDelay: cube.KeyValueReReplicationDelay);

    /// <summary>The settings of a node process; it also stops when its standard input (the supervisor's pipe) closes.</summary>
    public static IEnumerable<string> Arguments(Coordinate self, CubeLayout layout, CubeOptions cube)
    {
        var options = Options(self, layout, cube);
        yield return Setting(nameof(options.Shape), options.Shape!);
        yield return Setting(nameof(options.Coordinate), options.Coordinate!);
        yield return Setting(nameof(options.BasePort), options.BasePort!.Value.ToString(CultureInfo.InvariantCulture));
        yield return Setting(nameof(options.KeyFile), options.KeyFile!);
        yield return Setting(nameof(options.ControlSocket), options.ControlSocket!);
        yield return Setting(nameof(options.HeartbeatInterval), options.HeartbeatInterval.ToString("c", CultureInfo.InvariantCulture));
        if (options.HeartbeatTimeout is { } timeout)
        {
            yield return Setting(nameof(options.HeartbeatTimeout), timeout.ToString("c", CultureInfo.InvariantCulture));
        }

        yield return Setting(nameof(options.ExitWithStdin), "true");
        if (Memcached(self, cube) is { } memcached)
        {
            yield return string.Create(CultureInfo.InvariantCulture, $"--{Nodes.ReferenceServices.MemcachedSection}:Port={memcached.Port}");
        }

        if (cube.NodeProgram is not null)
        {
            // A user's node program runs its own services: the store's settings are the built-in node's.
            yield break;
        }

        var keyValue = KeyValue(self, layout, cube);
        yield return $"--{Nodes.KeyValueNodeSettings.Section}:Storage={keyValue.Storage}";
        yield return $"--{Nodes.KeyValueNodeSettings.Section}:Directory={keyValue.Directory}";
        if (keyValue.FrontEnd is { } frontEnd)
        {
            yield return string.Create(CultureInfo.InvariantCulture, $"--{Nodes.KeyValueNodeSettings.Section}:Port={frontEnd.Port}");
        }

        if (cube.KeyValueDelivery is { } delivery)
        {
            // Given only when asked for, so a setting in the environment (KeyValue__Delivery) reaches every node alike.
            yield return $"--{Nodes.KeyValueNodeSettings.Section}:Delivery={Nodes.KeyValueNodeSettings.NameOf(delivery)}";
        }

        if (cube.KeyValueValueBytesMax is { } valueBytesMax)
        {
            // Likewise: KeyValue__ValueBytesMax in the environment reaches every node when this is not given.
            yield return string.Create(CultureInfo.InvariantCulture, $"--{Nodes.KeyValueNodeSettings.Section}:ValueBytesMax={valueBytesMax}");
        }

        if (cube.KeyValueDurability is { } durability)
        {
            // Likewise: KeyValue__Durability in the environment reaches every node when this is not given.
            yield return $"--{Nodes.KeyValueNodeSettings.Section}:Durability={Nodes.KeyValueNodeSettings.NameOf(durability)}";
        }

        if (cube.KeyValueReReplicationDelay is { } delay)
        {
            // Likewise: KeyValue__ReReplicationDelay in the environment reaches every node when this is not given.
            yield return $"--{Nodes.KeyValueNodeSettings.Section}:ReReplicationDelay={delay.ToString("c", CultureInfo.InvariantCulture)}";
        }

        if (cube.KeyValueCacheReadsStore)
        {
            // Likewise: KeyValue__CacheReadsStore in the environment reaches every node when this is not given.
            yield return $"--{Nodes.KeyValueNodeSettings.Section}:CacheReadsStore=true";
        }
    }

    private static string Setting(string name, string value) => $"--{CamCubeNodeOptions.SectionName}:{name}={value}";

    private static string Format(Coordinate c) => string.Create(CultureInfo.InvariantCulture, $"{c.X},{c.Y},{c.Z}");
}
