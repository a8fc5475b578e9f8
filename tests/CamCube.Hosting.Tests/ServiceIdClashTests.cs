using CamCube.Services;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace CamCube.Hosting.Tests;

/// <summary>Two services with one hand-picked id are refused when the host starts, before the node runs, naming both.</summary>
public sealed class ServiceIdClashTests
{
    [Fact]
    public async Task HostEndsWithOneLineNamingBothServicesWhenTwoShareAnId()
    {
        var builder = Host.CreateEmptyApplicationBuilder(new HostApplicationBuilderSettings());
        builder.Configuration.AddInMemoryCollection(new Dictionary<string, string?> { ["CamCube:Shape"] = "1x1x1", ["CamCube:Coordinate"] = "0,0,0", ["CamCube:Insecure"] = "true" });
        builder.Logging.SetMinimumLevel(LogLevel.None);
        builder.Services.AddCamCubeNode(node => node.AddService<TallyService>().AddService<AuditService>().UseUdpTransport());
        using var host = builder.Build();
        using var error = new StringWriter();

        var exit = await host.RunCamCubeNodeAsync(name: "node", error: error);

        Assert.Equal(CamCubeHostExtensions.ExitFailure, exit);
        Assert.Equal(
            "node: Services 'tally' (CamCube.Hosting.Tests.ServiceIdClashTests+TallyService) and 'audit' (CamCube.Hosting.Tests.ServiceIdClashTests+AuditService) both have id 0x0300; give one of them another id.\n",
            error.ToString().ReplaceLineEndings("\n"));
    }

    private sealed class TallyService() : ServiceBase(0x0300, "tally");

    private sealed class AuditService() : ServiceBase(0x0300, "audit");
}
