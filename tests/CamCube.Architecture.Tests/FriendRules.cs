using System.Xml.Linq;

namespace CamCube.Architecture.Tests;

/// <summary>
/// Who may see a product project's internals: only its tests (STYLE.md convention 1). A src/ project's
/// InternalsVisibleTo may name only a test project under tests/ (not one that sets IsTestProject to
/// false, such as the fuzzing console); drivers and benchmarks use public API.
/// </summary>
internal static class FriendRules
{
    /// <summary>The assemblies a project file grants InternalsVisibleTo.</summary>
    public static IReadOnlyList<string> Friends(string projectFile) =>
        [.. XDocument.Load(projectFile).Descendants()
            .Where(e => e.Name.LocalName == "InternalsVisibleTo")
            .Select(e => (string?)e.Attribute("Include"))
            .OfType<string>()];

    /// <summary>The names of the test projects under tests/: each tests/&lt;Name&gt;/&lt;Name&gt;.csproj that does not opt out with IsTestProject false.</summary>
    public static IReadOnlySet<string> TestProjects(string root, IReadOnlyList<ProjectNode> projects) =>
        projects
            .Where(p => p.Path == $"tests/{p.Name}/{p.Name}.csproj")
            .Where(p => !XDocument.Load(Path.Combine(root, p.Path)).Descendants()
                .Any(e => e.Name.LocalName == "IsTestProject" && string.Equals(e.Value.Trim(), "false", StringComparison.OrdinalIgnoreCase)))
            .Select(p => p.Name)
            .ToHashSet(StringComparer.Ordinal);

    /// <summary>One line per InternalsVisibleTo in <paramref name="friendsByProject"/> (src/ projects only) that names no test project.</summary>
    public static IReadOnlyList<string> Violations(IEnumerable<(string Path, IReadOnlyList<string> Friends)> friendsByProject, IReadOnlySet<string> testProjects) =>
        [.. friendsByProject
            .Where(p => p.Path.StartsWith("src/", StringComparison.Ordinal))
            .SelectMany(p => p.Friends.Where(f => !testProjects.Contains(f)).Select(f => $"{p.Path}: InternalsVisibleTo {f}, which is not a test project under tests/ (use public API)"))];
}
