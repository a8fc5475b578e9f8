namespace CamCube.Architecture.Tests;

public sealed class FriendRulesTests
{
    private static readonly string s_root = ProjectGraph.FindRepositoryRoot();
    private static readonly IReadOnlyList<ProjectNode> s_projects = ProjectGraph.Load(s_root);

    [Fact]
    public void ProductCodeGrantsInternalsOnlyToTestProjectsWhenReadFromTheProjectFiles()
    {
        var violations = FriendRules.Violations(
            s_projects.Select(p => (p.Path, FriendRules.Friends(Path.Combine(s_root, p.Path)))),
            FriendRules.TestProjects(s_root, s_projects));
        Assert.True(violations.Count == 0, $"{violations.Count} violation(s):\n{string.Join('\n', violations)}");
    }

    [Fact]
    public void TestProjectsExcludeTheFuzzingConsoleWhenReadFromTheRepository()
    {
        var tests = FriendRules.TestProjects(s_root, s_projects);
        Assert.Contains("CamCube.Cli.Tests", tests);
        Assert.DoesNotContain("CamCube.Fuzz", tests);
    }

    [Fact]
    public void FriendsListTheTestProjectsWhenReadFromTheCliProjectFile()
    {
        Assert.Equal(["CamCube.Cli.Tests", "CamCube.Integration.Tests"], FriendRules.Friends(Path.Combine(s_root, "src/Cli/CamCube.Cli/CamCube.Cli.csproj")));
    }

    [Fact]
    public void ViolationsNameTheDriverWhenAProductProjectGrantsItsInternalsToOne()
    {
        var violations = FriendRules.Violations(
            [("src/Cli/CamCube.Cli/CamCube.Cli.csproj", ["CamCube.Cli.Tests", "CamCube.Fuzz"]), ("tests/X/X.csproj", ["Anything"])],
            new HashSet<string>(StringComparer.Ordinal) { "CamCube.Cli.Tests" });
        Assert.Equal(["src/Cli/CamCube.Cli/CamCube.Cli.csproj: InternalsVisibleTo CamCube.Fuzz, which is not a test project under tests/ (use public API)"], violations);
    }
}
