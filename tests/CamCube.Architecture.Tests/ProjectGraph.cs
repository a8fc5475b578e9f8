using System.Xml.Linq;

namespace CamCube.Architecture.Tests;

/// <summary>
/// The repository's projects and their <c>ProjectReference</c>s, read from the project files
/// themselves (not from loaded assemblies, which show only the references the compiler kept).
/// </summary>
internal static class ProjectGraph
{
    private static readonly string[] s_folders = ["src", "samples", "bench", "tests"];

    /// <summary>Gets the repository root: the nearest folder above the test's binaries that holds CamCube.sln.</summary>
    public static string FindRepositoryRoot()
    {
        for (var folder = new DirectoryInfo(AppContext.BaseDirectory); folder is not null; folder = folder.Parent)
        {
            if (File.Exists(Path.Combine(folder.FullName, "CamCube.sln")))
            {
                return folder.FullName;
            }
        }

        throw new InvalidOperationException($"No CamCube.sln above {AppContext.BaseDirectory}.");
    }

    /// <summary>Reads every project file under the source folders of <paramref name="root"/> (bin and obj aside).</summary>
    public static IReadOnlyList<ProjectNode> Load(string root)
    {
        var projects = new List<ProjectNode>();
        foreach (var folder in s_folders.Select(f => Path.Combine(root, f)).Where(Directory.Exists))
        {
            foreach (var file in Directory.EnumerateFiles(folder, "*.csproj", SearchOption.AllDirectories))
            {
                var relative = Relative(root, file);
                if (relative.Contains("/bin/", StringComparison.Ordinal) || relative.Contains("/obj/", StringComparison.Ordinal))
                {
                    continue;
                }

                var directory = Path.GetDirectoryName(file)!;
                var references = XDocument.Load(file).Descendants()
                    .Where(e => e.Name.LocalName == "ProjectReference")
                    .Select(e => (string?)e.Attribute("Include"))
                    .OfType<string>()
                    .Select(include => Relative(root, Path.GetFullPath(Path.Combine(directory, include.Replace('\\', '/')))))
                    .Order(StringComparer.Ordinal)
                    .ToList();
                projects.Add(new ProjectNode(relative, references));
            }
        }

        return [.. projects.OrderBy(p => p.Path, StringComparer.Ordinal)];
    }

    /// <summary>Gets the project paths CamCube.sln lists, relative to the root with '/' separators.</summary>
    public static IReadOnlySet<string> SolutionProjects(string root) =>
        File.ReadLines(Path.Combine(root, "CamCube.sln"))
            .Where(line => line.StartsWith("Project(", StringComparison.Ordinal))
            .Select(line => line.Split('"'))
            .Where(parts => parts.Length > 5 && parts[5].EndsWith(".csproj", StringComparison.Ordinal))
            .Select(parts => parts[5].Replace('\\', '/'))
            .ToHashSet(StringComparer.Ordinal);

    private static string Relative(string root, string path) => Path.GetRelativePath(root, path).Replace('\\', '/');
}
