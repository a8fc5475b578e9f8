using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace CamCube.Cli.Nodes;

/// <summary>`camcube node`: one CamCube server in this process, over UDP, under the generic host.</summary>
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
          --control-socket   a Unix socket for status, ping and stop (camcube cube commands use it)
          --memcached-port   serve the memcached protocol on this port (with --memcached-host, default 127.0.0.1)
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

        Every option can also come from the environment (CAMCUBE_SHAPE, CAMCUBE_COORD, ...) or appsettings.json.
        """;

    public static int Run(IReadOnlyList<string> args, CliConsole console)
    {
        var reader = new ArgumentReader("node", args, NodeSettingsReader.ValueOptions, NodeSettingsReader.FlagOptions);
        if (reader.Positional.Count > 0)
        {
            throw new UsageException($"node: unexpected argument '{reader.Positional[0]}'.");
        }

        var configuration = BuildConfiguration(reader);
        var settings = NodeSettingsReader.Read(configuration);
        var builder = Host.CreateApplicationBuilder(new HostApplicationBuilderSettings { DisableDefaults = true, Configuration = new ConfigurationManager() });
        builder.Configuration.AddConfiguration(configuration);
        builder.Logging.AddSimpleConsole(o =>
        {
            o.SingleLine = true;
            o.TimestampFormat = "HH:mm:ss.fff ";
        });
        builder.Logging.SetMinimumLevel(ParseLevel(configuration["log-level"]));

        // The host logs a failed start with its whole stack trace; the one line below says it instead.
        builder.Logging.AddFilter("Microsoft.Extensions.Hosting", LogLevel.None);
        builder.Services.AddSingleton(settings);
        builder.Services.AddHostedService<NodeHostedService>();
        builder.Services.Configure<HostOptions>(o => o.ShutdownTimeout = TimeSpan.FromSeconds(5));
        try
        {
            using var host = builder.Build();
            host.Run();
            return CliApp.ExitOk;
        }
        catch (Exception ex) when (ex is InvalidOperationException or IOException or UnauthorizedAccessException or System.Net.Sockets.SocketException or FormatException or InvalidDataException or ArgumentException)
        {
            console.Error.WriteLine($"camcube node: {CliApp.FirstLine(ex.Message)}");
            return CliApp.ExitFailure;
        }
    }

    private static IConfiguration BuildConfiguration(ArgumentReader reader)
    {
        var fromArgs = ArgumentValues(reader);
        var environment = new Dictionary<string, string?>(StringComparer.OrdinalIgnoreCase);
        foreach (var option in NodeSettingsReader.ValueOptions.Concat(NodeSettingsReader.FlagOptions))
        {
            var name = "CAMCUBE_" + option[2..].ToUpperInvariant().Replace('-', '_');
            if (Environment.GetEnvironmentVariable(name) is { } value)
            {
                environment[option[2..]] = value;
            }
        }

        return new ConfigurationBuilder()
            .AddJsonFile(Path.Combine(Directory.GetCurrentDirectory(), "appsettings.json"), optional: true)
            .AddInMemoryCollection(environment)
            .AddInMemoryCollection(fromArgs)
            .Build();
    }

    /// <summary>The configuration values the command line gives: each option's value under its name without dashes, "true" for each flag.</summary>
    /// <exception cref="UsageException">An option was given more than once.</exception>
    internal static Dictionary<string, string?> ArgumentValues(ArgumentReader reader)
    {
        var fromArgs = new Dictionary<string, string?>(StringComparer.OrdinalIgnoreCase);
        foreach (var option in NodeSettingsReader.ValueOptions)
        {
            if (reader.Single(option) is { } value)
            {
                fromArgs[option[2..]] = value;
            }
        }

        foreach (var flag in NodeSettingsReader.FlagOptions)
        {
            if (reader.Flag(flag))
            {
                fromArgs[flag[2..]] = "true";
            }
        }

        return fromArgs;
    }

    private static LogLevel ParseLevel(string? text) =>
        text is null ? LogLevel.Information
        : Enum.TryParse<LogLevel>(text, ignoreCase: true, out var level) ? level
        : throw new UsageException($"--log-level: '{text}' is not one of Trace, Debug, Information, Warning, Error, Critical, None.");
}
