namespace CamCube.Architecture.Tests;

/// <summary>The rules themselves, on small made-up graphs: each reports exactly the reference that breaks it.</summary>
public sealed class ReferenceRulesTests
{
    private const string Abstractions = "src/Runtime/CamCube.Abstractions/CamCube.Abstractions.csproj";
    private const string Runtime = "src/Runtime/CamCube.Runtime/CamCube.Runtime.csproj";
    private const string Messaging = "src/Runtime/CamCube.Messaging/CamCube.Messaging.csproj";
    private const string Udp = "src/Transport/CamCube.Transport.Udp/CamCube.Transport.Udp.csproj";
    private const string Faults = "src/Transport/CamCube.Transport.Faults/CamCube.Transport.Faults.csproj";
    private const string Cache = "src/Services/CamCube.Services.Cache/CamCube.Services.Cache.csproj";
    private const string Reliable = "src/Services/CamCube.Services.Reliable/CamCube.Services.Reliable.csproj";
    private const string Cli = "src/Cli/CamCube.Cli/CamCube.Cli.csproj";
    private const string CliTests = "tests/CamCube.Cli.Tests/CamCube.Cli.Tests.csproj";

    [Fact]
    public void ReportsATransportThatReferencesAnotherTransportWhenTheFaultsReferenceUdp()
    {
        var graph = Graph((Faults, [Abstractions, Udp]), (Udp, [Abstractions]));
        Assert.Equal(
            [$"{Faults} -> {Udp}: a transport references only the abstractions"],
            ReferenceRules.TransportReferences(graph));
    }

    [Fact]
    public void ReportsATransportThatReferencesTheRuntimeWhenItsProjectFileDoes()
    {
        Assert.Equal(
            [$"{Udp} -> {Runtime}: a transport references only the abstractions"],
            ReferenceRules.TransportReferences(Graph((Udp, [Abstractions, Runtime]))));
    }

    [Fact]
    public void AcceptsAServiceOnTheServiceSdkWhenItReferencesNothingElse()
    {
        Assert.Empty(ReferenceRules.ServiceReferences(Graph((Cache, [Abstractions, Messaging]), (Messaging, [Abstractions]))));
    }

    [Fact]
    public void AcceptsTheTypedMessagesOnTheReliableTransportWhenBothAreServiceSdk()
    {
        Assert.Equal(ProjectRole.ServiceSdk, ProjectRoles.Of(Reliable));
        Assert.Empty(ReferenceRules.ServiceReferences(Graph((Cache, [Abstractions, Messaging, Reliable]), (Messaging, [Abstractions, Reliable]), (Reliable, [Abstractions]))));
    }

    [Fact]
    public void ReportsTheServiceSdkWhenItReferencesAService()
    {
        Assert.Equal(
            [$"{Messaging} -> {Cache}: the service SDK references only the abstractions and itself"],
            ReferenceRules.ServiceReferences(Graph((Messaging, [Abstractions, Cache]), (Cache, [Abstractions]))));
    }

    [Fact]
    public void ReportsAServiceThatReferencesATransportWhenItsProjectFileDoes()
    {
        var graph = Graph((Cache, [Abstractions, Udp]));
        Assert.Equal([$"{Cache} -> {Udp}: a service references only the abstractions and the service SDK"], ReferenceRules.ServiceReferences(graph));
        Assert.Equal([$"{Cache} -> {Udp}: only hosts, the test cubes, tests, benchmarks and experiments reference a transport"], ReferenceRules.TransportUsers(graph));
    }

    [Fact]
    public void AcceptsHostsAndTestsOnTransportsWhenTheyReferenceThem()
    {
        Assert.Empty(ReferenceRules.TransportUsers(Graph((Cli, [Runtime, Udp, Faults]), (CliTests, [Cli, Udp]))));
    }

    [Fact]
    public void ReportsProductCodeThatReferencesATestWhenItsProjectFileDoes()
    {
        Assert.Equal(
            [$"{Cli} -> {CliTests}: product code references only product code"],
            ReferenceRules.ProductReferences(Graph((Cli, [Runtime, CliTests]))));
    }

    private static List<ProjectNode> Graph(params (string Path, string[] References)[] projects) =>
        [.. projects.Select(p => new ProjectNode(p.Path, p.References))];
}
