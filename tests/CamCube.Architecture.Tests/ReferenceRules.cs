namespace CamCube.Architecture.Tests;

/// <summary>
/// Which project may reference which (STYLE.md convention 1, architecture.md): dependencies point
/// inward. Each check returns one line per offending reference, <c>from -> to: why</c>.
/// </summary>
internal static class ReferenceRules
{
    /// <summary>The roles that may wire a runtime to a transport.</summary>
    private static readonly ProjectRole[] s_transportUsers = [ProjectRole.Host, ProjectRole.Testing, ProjectRole.Test, ProjectRole.Benchmark, ProjectRole.Experiments];

    /// <summary>Transports (and the fault decorators) reference only the abstractions.</summary>
    public static IReadOnlyList<string> TransportReferences(IReadOnlyList<ProjectNode> projects) =>
        [.. Check(projects, ProjectRole.Transport, [ProjectRole.Abstractions], "a transport references only the abstractions")];

    /// <summary>Services reference only the abstractions and the service SDK built on them; the SDK's projects only the abstractions and one another (MSBuild refuses a cycle).</summary>
    public static IReadOnlyList<string> ServiceReferences(IReadOnlyList<ProjectNode> projects) =>
        Check(projects, ProjectRole.Service, [ProjectRole.Abstractions, ProjectRole.ServiceSdk], "a service references only the abstractions and the service SDK")
            .Concat(Check(projects, ProjectRole.ServiceSdk, [ProjectRole.Abstractions, ProjectRole.ServiceSdk], "the service SDK references only the abstractions and itself"))
            .ToList();

    /// <summary>The abstractions reference nothing; the runtime only the abstractions.</summary>
    public static IReadOnlyList<string> CoreReferences(IReadOnlyList<ProjectNode> projects) =>
        Check(projects, ProjectRole.Abstractions, [], "the abstractions reference no project")
            .Concat(Check(projects, ProjectRole.Runtime, [ProjectRole.Abstractions], "the runtime references only the abstractions"))
            .ToList();

    /// <summary>Nothing but hosts, the test cubes, tests, benchmarks and experiments references a transport.</summary>
    public static IReadOnlyList<string> TransportUsers(IReadOnlyList<ProjectNode> projects) =>
        projects
            .Where(p => !s_transportUsers.Contains(p.Role))
            .SelectMany(p => p.References.Where(r => ProjectRoles.Of(r) == ProjectRole.Transport && p.Role != ProjectRole.Transport)
                .Select(r => Line(p, r, "only hosts, the test cubes, tests, benchmarks and experiments reference a transport")))
            .ToList();

    /// <summary>Product code (src/) references no test, benchmark or sample.</summary>
    public static IReadOnlyList<string> ProductReferences(IReadOnlyList<ProjectNode> projects) =>
        projects
            .Where(p => p.Path.StartsWith("src/", StringComparison.Ordinal))
            .SelectMany(p => p.References.Where(r => !r.StartsWith("src/", StringComparison.Ordinal))
                .Select(r => Line(p, r, "product code references only product code")))
            .ToList();

    private static IEnumerable<string> Check(IReadOnlyList<ProjectNode> projects, ProjectRole role, ProjectRole[] allowed, string rule) =>
        projects
            .Where(p => p.Role == role)
            .SelectMany(p => p.References.Where(r => !allowed.Contains(ProjectRoles.Of(r))).Select(r => Line(p, r, rule)));

    private static string Line(ProjectNode from, string to, string rule) => $"{from.Path} -> {to}: {rule}";
}
