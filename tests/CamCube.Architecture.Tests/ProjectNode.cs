namespace CamCube.Architecture.Tests;

/// <summary>One project file and the project files it references, as paths relative to the repository root with '/' separators.</summary>
internal sealed record ProjectNode(string Path, IReadOnlyList<string> References)
{
    /// <summary>Gets the project's name: its file name without <c>.csproj</c>.</summary>
    public string Name => System.IO.Path.GetFileNameWithoutExtension(Path);

    /// <summary>Gets the project's role.</summary>
    public ProjectRole Role => ProjectRoles.Of(Path);
}
