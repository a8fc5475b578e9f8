using CamCube.Hosting;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace CamCube.Cli.Nodes;

/// <summary>`camcube node`: one CamCube server in this process, over UDP, a host built with CamCube.Hosting that runs the reference services.</summary>
internal static class NodeCommand
{
    public const string Usage = """
        usage: camcube node --shape 3x3x3 --coord x,y,z [options]

          --shape            the torus, XxYxZ
          --coord            this server's coordinate x,y,z, or 'auto' (from a host name cc-x-y-z or a StatefulSet ordinal name-N)
          --base-port        UDP port of server 0 on one host; server i listens on base + i (default 17000)
          --host             the IP address every server of a one-host cube uses (default 127.0.0.1)
          --peers            instead of --base-port: a host-name pattern, e.g. 'cc-{x}-{y}-{z}:7000'
          --key-file         the cluster key (32 raw bytes or 64 hex digits); otherwise CAMCUBE_CLUSTER_KEY
          --insecure         run without a key (loopback addresses only)
          --control-socket   a Unix socket for status, ping, faults, health and stop (camcube cube commands use it)
          --memcached-port   serve the memcached protocol on this port (with --memcached-host, default 127.0.0.1)
          --kv-storage       the key-value store's backend: sqlite (default; its database keyvalue-x-y-z.db in
                             --kv-dir, default the state directory's data) or memory
          --kv-port          serve the key-value store's memcached front-end on this port (with --kv-host)
          --kv-delivery      how the store's messages travel: reliable (default; a lost packet is resent on the
                             reliable transport, a write runs once) or best-effort; the same on every node
          --kv-value-max     the largest value the store takes, in bytes (default 8192, at most 64 MiB less 64 KiB)
          --kv-durability    sqlite only: fsync (default; each commit is flushed to the device before a write is
                             acknowledged) or no-fsync (written to the operating system: a killed process loses
                             nothing, a crashed or powered-off host may lose its last commits)
          --kv-rereplication-delay-s  t: how long after a server became unreachable its keys are copied to
                             the servers that replaced it, in seconds (default 180, less than a day), so a
                             rebooting server causes no bulk copying
          --kv-cache         the cache reads the store on a miss at a key's root, keeping no second copy
                             (camcubeos 5.2, memId = objId); it then serves the store's values by the same names,
                             which its delete and flush_all do not remove (off by default)
          --heartbeat-ms     heartbeat interval (default 100); --timeout-ms link timeout (default 3.5 x interval)
          --rate-limit-mbps  limit every link to this many megabits per second (default: none)
          --loop             udp (default): one thread runs the node and reads its UDP socket; threaded:
                             a loop thread and a receive thread that hands it the frames
          --loop-spin-us     a threaded loop (implied) spins this long for work before sleeping (default 0):
                             for a node with a core to spare; never for many nodes on few cores
          --udp-spin-us      a udp loop watches its socket this long after it sent, before it blocks
                             (default 50, at most 1000, 0 = never): a reply that comes meanwhile wakes no thread
          --no-udp-gso       send every datagram in its own system call (by default, on Linux, a run of
                             datagrams to one neighbour leaves in one call with UDP segmentation offload)
          --exit-with-stdin  stop when standard input closes (how `camcube cube up` ties its nodes to itself)
          --log-level        Trace, Debug, Information (default), Warning, Error

        Each option is a setting of the configuration section CamCube (Memcached for the cache's
        front-end, KeyValue for the store, Logging for log levels), which also comes from appsettings.json, the environment
        (CAMCUBE__SHAPE, CAMCUBE__COORDINATE, ..., or the older CAMCUBE_SHAPE, CAMCUBE_COORD, ...) and
        arguments such as --CamCube:HeartbeatInterval=00:00:00.200 or --Logging:LogLevel:CamCube.Control=Debug.
        A node program built on CamCube.Hosting reads the same CamCube settings.
        """;

    public static int Run(IReadOnlyList<string> args, CliConsole console)
    {
        var (legacy, settings) = NodeArguments.Split(args);
        var reader = new ArgumentReader("node", legacy, NodeArguments.ValueOptions, NodeArguments.FlagOptions);
        if (reader.Positional.Count > 0)
        {
            throw new UsageException($"node: unexpected argument '{reader.Positional[0]}'.");
        }

        var configuration = BuildConfiguration(reader, settings);
        var builder = Host.CreateApplicationBuilder(new HostApplicationBuilderSettings { DisableDefaults = true, Configuration = new ConfigurationManager() });
        builder.Configuration.AddConfiguration(configuration);
        builder.Logging.AddConfiguration(configuration.GetSection("Logging"));
        builder.Logging.AddSimpleConsole(o =>
        {
            o.SingleLine = true;
            o.TimestampFormat = "HH:mm:ss.fff ";
        });

        // The host logs a failed start with its whole stack trace; the one line of RunCamCubeNodeAsync says it instead.
        builder.Logging.AddFilter("Microsoft.Extensions.Hosting", LogLevel.None);
        builder.Services.AddCamCubeNode(node => node.AddReferenceServices().UseUdpTransport());
        builder.Services.Configure<HostOptions>(o => o.ShutdownTimeout = TimeSpan.FromSeconds(5));
        using var host = builder.Build();
        return host.RunCamCubeNodeAsync(name: "camcube node", error: console.Error).GetAwaiter().GetResult();
    }

    /// <summary>
    /// The node's configuration, later sources winning: appsettings.json, CAMCUBE__* environment
    /// variables, the older CAMCUBE_* ones, then the command line (its options, then its settings).
    /// </summary>
    private static IConfiguration BuildConfiguration(ArgumentReader reader, IReadOnlyList<string> settings)
    {
        var legacyEnvironment = new List<string>();
        foreach (var option in NodeArguments.ValueOptions.Concat(NodeArguments.FlagOptions))
        {
            var name = "CAMCUBE_" + option[2..].ToUpperInvariant().Replace('-', '_');
            if (Environment.GetEnvironmentVariable(name) is { } value)
            {
                legacyEnvironment.Add(option);
                if (NodeArguments.ValueOptions.Contains(option))
                {
                    legacyEnvironment.Add(value);
                }
                else if (!string.Equals(value, "true", StringComparison.OrdinalIgnoreCase))
                {
                    legacyEnvironment.RemoveAt(legacyEnvironment.Count - 1);
                }
            }
        }

        var fromEnvironment = NodeArguments.Settings(new ArgumentReader("node", legacyEnvironment, NodeArguments.ValueOptions, NodeArguments.FlagOptions));
        return new ConfigurationBuilder()
            .AddJsonFile(Path.Combine(Directory.GetCurrentDirectory(), "appsettings.json"), optional: true)
            .AddEnvironmentVariables(source => source.Prefix = null)
            .AddInMemoryCollection(fromEnvironment)
            .AddInMemoryCollection(NodeArguments.Settings(reader))
            .AddCommandLine(settings.ToArray())
            .Build();
    }
}
