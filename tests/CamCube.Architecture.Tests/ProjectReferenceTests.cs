namespace CamCube.Architecture.Tests;

/// <summary>The repository's own project files keep the dependency rules (architecture.md, STYLE.md convention 1).</summary>
public sealed class ProjectReferenceTests
{
    private static readonly string s_root = ProjectGraph.FindRepositoryRoot();
    private static readonly IReadOnlyList<ProjectNode> s_projects = ProjectGraph.Load(s_root);

    [Fact]
    public void FindsTheKnownProjectsWhenReadingTheRepository()
    {
        // A guard against a graph that reads nothing and so passes every rule.
        var byName = s_projects.ToDictionary(p => p.Name, StringComparer.Ordinal);
        Assert.Equal(["src/Runtime/CamCube.Abstractions/CamCube.Abstractions.csproj"], byName["CamCube.Transport.Udp"].References);
        Assert.Contains("src/Transport/CamCube.Transport.Simulation/CamCube.Transport.Simulation.csproj", byName["CamCube.Testing"].References);
        Assert.Equal(ProjectRole.Transport, byName["CamCube.Transport.Faults"].Role);
        Assert.Equal(ProjectRole.Experiments, byName["CamCube.Experiments"].Role);
    }

    [Fact]
    public void EveryProjectHasARoleWhenFoundUnderTheSourceFolders()
    {
        AssertNone([.. s_projects.Where(p => p.Role == ProjectRole.Unknown).Select(p => $"{p.Path}: no role (give its folder one in ProjectRoles)")]);
    }

    [Fact]
    public void EveryProjectIsInTheSolutionWhenFoundUnderTheSourceFolders()
    {
        // The README's test command builds and tests the solution: a project missing from it is never built by CI.
        var listed = ProjectGraph.SolutionProjects(s_root);
        AssertNone([.. s_projects.Select(p => p.Path).Where(p => !listed.Contains(p)).Select(p => $"{p}: not in CamCube.sln")]);
    }

    [Fact]
    public void TransportsReferenceOnlyTheAbstractionsWhenReadFromTheirProjectFiles()
    {
        AssertNone(ReferenceRules.TransportReferences(s_projects));
    }

    [Fact]
    public void ServicesReferenceOnlyTheServiceSdkWhenReadFromTheirProjectFiles()
    {
        AssertNone(ReferenceRules.ServiceReferences(s_projects));
    }

    [Fact]
    public void TheAbstractionsAndTheRuntimeReferenceNothingOutwardWhenReadFromTheirProjectFiles()
    {
        AssertNone(ReferenceRules.CoreReferences(s_projects));
    }

    [Fact]
    public void OnlyHostsTestsBenchmarksAndExperimentsReferenceTransportsWhenReadFromTheProjectFiles()
    {
        AssertNone(ReferenceRules.TransportUsers(s_projects));
    }

    [Fact]
    public void ProductCodeReferencesNoTestBenchmarkOrSampleWhenReadFromTheProjectFiles()
    {
        AssertNone(ReferenceRules.ProductReferences(s_projects));
    }

    /// <summary>Fails with one line per violation, in full, so the message says what to fix.</summary>
    private static void AssertNone(IReadOnlyList<string> violations) =>
        Assert.True(violations.Count == 0, $"{violations.Count} violation(s):\n{string.Join('\n', violations)}");
}
