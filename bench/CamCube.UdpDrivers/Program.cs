using System.Globalization;

namespace CamCube.UdpDrivers;

/// <summary>
/// The UDP benchmark drivers of the UDP issue: <c>ping</c> (1-hop ping RTT through the runtime
/// against a plain UDP ping-pong) and <c>links</c> (the link benchmark on a 3x3x3 cube against
/// raw UDP sockets). Both send only to 127.0.0.1 and stop by themselves.
/// </summary>
internal static class Program
{
    private const string Usage = """
        usage:
          ping  [--count 2000] [--blocks 10] [--base-port 29000] [--echo-port 29010] [--loop udp|threaded] [--loop-spin-us 0 (threaded)] [--udp-spin-us 50]
          links [--seconds 5] [--raw-seconds 3] [--links-max 6] [--base-port 29100] [--raw-port 29200] [--heartbeat-timeout-ms 350] [--loop udp|threaded] [--udp-spin-us 50]
        (internal, started by 'ping': ping-node ..., echo-server ...)
        """;

    private static async Task<int> Main(string[] args)
    {
        if (args.Length == 0)
        {
            await Console.Error.WriteLineAsync(Usage).ConfigureAwait(false);
            return 2;
        }

        var options = DriverArguments.Parse(args.AsSpan(1));
        try
        {
            return args[0] switch
            {
                "ping" => await PingDriver.RunAsync(options).ConfigureAwait(false),
                "links" => await LinkDriver.RunAsync(options).ConfigureAwait(false),
                "ping-node" => await ChildModes.RunPingNodeAsync(options).ConfigureAwait(false),
                "echo-server" => await ChildModes.RunEchoServerAsync(options).ConfigureAwait(false),
                _ => await UnknownAsync(args[0]).ConfigureAwait(false),
            };
        }
        catch (FormatException ex)
        {
            await Console.Error.WriteLineAsync(ex.Message).ConfigureAwait(false);
            return 2;
        }
    }

    private static async Task<int> UnknownAsync(string command)
    {
        await Console.Error.WriteLineAsync(string.Create(CultureInfo.InvariantCulture, $"unknown command '{command}'\n{Usage}")).ConfigureAwait(false);
        return 2;
    }
}
