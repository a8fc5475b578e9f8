using CamCube.Cli.Cube;
using CamCube.Cli.Nodes;
using CamCube.Hosting;
using CamCube.Messaging;
using Microsoft.Extensions.Configuration;

namespace CamCube.Cli.Tests;

/// <summary>How the store's messages travel on a node (<c>KeyValue:Delivery</c>) and on every node of a cube (<c>cube up --kv-delivery</c>).</summary>
public sealed class KeyValueDeliveryTests
{
    [Theory]
    [InlineData(null, MessageDelivery.Reliable)]
    [InlineData("reliable", MessageDelivery.Reliable)]
    [InlineData("best-effort", MessageDelivery.BestEffort)]
    [InlineData("Best-Effort", MessageDelivery.BestEffort)]
    public void NodeSettingsGiveTheStoreTheDeliveryWhenConfigured(string? configured, MessageDelivery expected)
    {
        var settings = KeyValueNodeSettings.Read(Configuration(configured));

        Assert.Equal(expected, settings.Delivery);
        Assert.Equal(expected, settings.StoreOptions.Delivery);
    }

    [Fact]
    public void NodeSettingsRefuseAnUnknownDeliveryWithOneLine()
    {
        var error = Assert.Throws<CamCubeConfigurationException>(() => KeyValueNodeSettings.Read(Configuration("carrier-pigeon")));

        Assert.Equal("KeyValue:Delivery: 'carrier-pigeon' is neither reliable nor best-effort.", error.Message);
    }

    [Fact]
    public void CubeUpGivesEveryNodeTheDeliveryWhenAsked()
    {
        var (options, _) = CubeCommand.ReadUp(["--shape", "2x2x2", "--kv-delivery", "best-effort"]);
        var layout = new CubeLayout(Path.GetTempPath());

        Assert.Equal(MessageDelivery.BestEffort, options.KeyValueDelivery);
        foreach (var node in Enumerable.Range(0, 8).Select(i => options.Shape.CoordinateAt(i)))
        {
            Assert.Single(NodeLaunch.Arguments(node, layout, options), "--KeyValue:Delivery=best-effort");
            Assert.Equal(MessageDelivery.BestEffort, NodeLaunch.KeyValue(node, layout, options).Delivery);
        }
    }

    [Fact]
    public void CubeUpLeavesTheDeliveryAndTheLargestValueToTheNodesWhenNotAsked()
    {
        var (options, _) = CubeCommand.ReadUp(["--shape", "2x2x2"]);
        var layout = new CubeLayout(Path.GetTempPath());

        Assert.Null(options.KeyValueDelivery);
        Assert.Null(options.KeyValueValueBytesMax);
        Assert.DoesNotContain(NodeLaunch.Arguments(new Coordinate(0, 0, 0), layout, options), argument => argument.StartsWith("--KeyValue:Delivery", StringComparison.Ordinal) || argument.StartsWith("--KeyValue:ValueBytesMax", StringComparison.Ordinal));
        Assert.Equal(MessageDelivery.Reliable, NodeLaunch.KeyValue(new Coordinate(0, 0, 0), layout, options).Delivery);
        Assert.Equal(8 * 1024, NodeLaunch.KeyValue(new Coordinate(0, 0, 0), layout, options).StoreOptions.ValueBytesMax);
    }

    [Fact]
    public void CubeUpRefusesAnUnknownDeliveryWithOneLine()
    {
        var error = Assert.Throws<UsageException>(() => CubeCommand.ReadUp(["--kv-delivery", "tcp"]));

        Assert.Equal("--kv-delivery: 'tcp' is neither reliable nor best-effort.", error.Message);
    }

    private static IConfiguration Configuration(string? delivery) => new ConfigurationBuilder()
        .AddInMemoryCollection(delivery is null ? [] : [new KeyValuePair<string, string?>("KeyValue:Delivery", delivery)])
        .Build();
}
