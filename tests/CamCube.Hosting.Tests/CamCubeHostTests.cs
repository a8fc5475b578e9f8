using System.Diagnostics.Metrics;
using System.Net;
using System.Net.Sockets;
using CamCube.Cli.Tests;
using CamCube.Hosting.Control;
using CamCube.Hosting.Health;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace CamCube.Hosting.Tests;

/// <summary>A node in a real generic host: bad configuration ends it with one line and exit code 1; a good one answers on its control socket.</summary>
[System.Runtime.Versioning.UnsupportedOSPlatform("windows")]
public sealed class CamCubeHostTests
{
    private static readonly TimeSpan s_patience = TimeSpan.FromSeconds(30);

    [Theory]
    [InlineData("CamCube:Colour", "blue", "node: CamCube:Colour: unknown setting; the settings of CamCube are Shape, Coordinate, BasePort,")]
    [InlineData("CamCube:Seed", "seven", "node: CamCube:Seed: 'seven' is not a whole number.")]
    [InlineData("CamCube:BasePort", "65530", "node: CamCube:BasePort 65530: the 8 servers of 2x2x2 need ports 65530 to 65537, past 65535.")]
    [InlineData("CamCube:KeyFile", "/nonexistent/cluster.key", "node: CamCube:KeyFile: '/nonexistent/cluster.key' does not exist.")]
    public async Task BadConfigurationEndsTheHostWithOneLineNamingTheSettingWhenItStarts(string key, string value, string start)
    {
        using var host = Build(new() { ["CamCube:Shape"] = "2x2x2", ["CamCube:Coordinate"] = "0,0,0", ["CamCube:Insecure"] = "true", [key] = value });
        using var error = new StringWriter();
        var exit = await host.RunCamCubeNodeAsync(name: "node", error: error);
        Assert.Equal(CamCubeHostExtensions.ExitFailure, exit);
        var lines = error.ToString().TrimEnd('\n').Split('\n');
        Assert.Single(lines);
        Assert.StartsWith(start, lines[0], StringComparison.Ordinal);
    }

    [Fact]
    public async Task TheNodeAnswersStatusHealthAndItsOwnCommandsWhenTheHostRuns()
    {
        using var directory = new TemporaryDirectory();
        var socket = Path.Combine(directory.Path, "n.sock");
        using var host = Build(
            new() { ["CamCube:Shape"] = "1x1x1", ["CamCube:Coordinate"] = "0,0,0", ["CamCube:Insecure"] = "true", ["CamCube:BasePort"] = FreeUdpPort().ToString(System.Globalization.CultureInfo.InvariantCulture), ["CamCube:ControlSocket"] = socket },
            node => node.AddControlCommand("echo", (n, words, _) => Task.FromResult($"{n.Self} {string.Join(' ', words)}")));
        await host.StartAsync();
        try
        {
            // The runtime's meter comes from the host's IMeterFactory.
            var factory = host.Services.GetRequiredService<IMeterFactory>();
            using var listener = new MeterListener();
            var fromFactory = false;
            listener.InstrumentPublished = (instrument, _) => fromFactory |= instrument.Meter.Name == "CamCube.Runtime" && ReferenceEquals(instrument.Meter.Scope, factory);
            listener.Start();
            Assert.True(fromFactory);

            var status = await ControlClient.AskAsync(socket, "status", ControlJsonContext.Default.NodeStatus, s_patience);
            Assert.Equal("0,0,0", status.Self);
            Assert.Equal(Environment.ProcessId, status.Pid);
            Assert.True(status.Running);

            var health = await ControlClient.AskAsync(socket, "health", ControlJsonContext.Default.HealthResult, s_patience);
            Assert.Equal("Healthy", health.Status);
            Assert.Equal([new HealthCheckLine(CamCubeNodeHealthCheck.Name, "Healthy", "0 of 0 links up, 1 of 1 servers reachable")], health.Checks);

            using var output = new StringWriter();
            Assert.Equal(0, await CamCubeHealthProbe.AskAsync(socket, output));
            Assert.Equal("Healthy: 0 of 0 links up, 1 of 1 servers reachable\n", output.ToString().ReplaceLineEndings("\n"));

            var echo = await ControlClient.AskAsync(socket, "echo a b", ControlJsonContext.Default.CommandResult, s_patience);
            Assert.Equal(new CommandResult { Command = "echo", Result = "(0,0,0) a b" }, echo);

            var unknown = await ControlClient.AskAsync(socket, "colour", ControlJsonContext.Default.ControlResponse, s_patience);
            Assert.StartsWith("unknown or incomplete command 'colour'", unknown.Error, StringComparison.Ordinal);
        }
        finally
        {
            await host.StopAsync();
        }
    }

    [Fact]
    public async Task TheRuntimeLimitsReachTheNodeWhenSetInTheCamCubeSection()
    {
        using var host = Build(new()
        {
            ["CamCube:Shape"] = "1x1x1",
            ["CamCube:Coordinate"] = "0,0,0",
            ["CamCube:Insecure"] = "true",
            ["CamCube:BasePort"] = FreeUdpPort().ToString(System.Globalization.CultureInfo.InvariantCulture),
            ["CamCube:PostedItemsMax"] = "12",
            ["CamCube:DropNoticesPerSecondMax"] = "0",
        });
        await host.StartAsync();
        try
        {
            var node = host.Services.GetRequiredService<CamCubeNodeAccessor>().Node;
            Assert.NotNull(node);
            Assert.Equal(12, node.Node.Options.PostedItemsMax);
            Assert.Equal(0, node.Node.Options.DropNoticesPerSecondMax);
        }
        finally
        {
            await host.StopAsync();
        }
    }

    [Fact]
    public async Task TheHealthProbeFailsWhenNoNodeAnswers()
    {
        using var directory = new TemporaryDirectory();
        using var output = new StringWriter();
        Assert.Equal(1, await CamCubeHealthProbe.AskAsync(Path.Combine(directory.Path, "none.sock"), output));
        Assert.StartsWith("Unhealthy: no node answers on ", output.ToString(), StringComparison.Ordinal);
    }

    [Fact]
    public void AddingANodeWithoutATransportIsRefusedWhenTheHostIsBuilt()
    {
        var builder = Host.CreateEmptyApplicationBuilder(new HostApplicationBuilderSettings());
        var ex = Assert.Throws<InvalidOperationException>(() => builder.Services.AddCamCubeNode(_ => { }));
        Assert.Equal("AddCamCubeNode: choose the node's transport, such as node.UseUdpTransport().", ex.Message);
    }

    private static IHost Build(Dictionary<string, string?> settings, Action<CamCubeNodeBuilder>? configure = null)
    {
        var builder = Host.CreateEmptyApplicationBuilder(new HostApplicationBuilderSettings());
        builder.Configuration.AddInMemoryCollection(settings);
        builder.Logging.SetMinimumLevel(LogLevel.None);
        builder.Services.AddCamCubeNode(node =>
        {
            configure?.Invoke(node);
            node.UseUdpTransport();
        });
        return builder.Build();
    }

    private static int FreeUdpPort()
    {
        using var probe = new Socket(AddressFamily.InterNetwork, SocketType.Dgram, ProtocolType.Udp);
        probe.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        return ((IPEndPoint)probe.LocalEndPoint!).Port;
    }
}
