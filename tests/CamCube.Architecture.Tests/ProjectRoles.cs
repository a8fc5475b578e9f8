namespace CamCube.Architecture.Tests;

/// <summary>Gives each project its <see cref="ProjectRole"/> from where it lives: the layout shows the architecture.</summary>
internal static class ProjectRoles
{
    /// <summary>
    /// The projects a service may build on besides the abstractions, each built only on the
    /// abstractions and on one another: the memcached protocol, the reliable transport (a library
    /// services embed, kept with the services as camcubeos 5.4 has it) and the typed messages on it.
    /// </summary>
    private static readonly string[] s_serviceSdk = ["src/Runtime/CamCube.Messaging/", "src/Runtime/CamCube.Memcached/", "src/Services/CamCube.Services.Reliable/"];

    /// <summary>Gets the role of the project at <paramref name="path"/>, relative to the repository root with '/' separators.</summary>
    public static ProjectRole Of(string path) => path switch
    {
        _ when path.StartsWith("src/Runtime/CamCube.Abstractions/", StringComparison.Ordinal) => ProjectRole.Abstractions,
        _ when s_serviceSdk.Any(p => path.StartsWith(p, StringComparison.Ordinal)) => ProjectRole.ServiceSdk,
        _ when path.StartsWith("src/Runtime/CamCube.Runtime/", StringComparison.Ordinal) => ProjectRole.Runtime,
        _ when path.StartsWith("src/Runtime/CamCube.Testing/", StringComparison.Ordinal) => ProjectRole.Testing,
        _ when path.StartsWith("src/Transport/", StringComparison.Ordinal) => ProjectRole.Transport,
        _ when path.StartsWith("src/Services/", StringComparison.Ordinal) => ProjectRole.Service,
        _ when path.StartsWith("src/Hosting/", StringComparison.Ordinal) || path.StartsWith("src/Cli/", StringComparison.Ordinal) || path.StartsWith("samples/", StringComparison.Ordinal) => ProjectRole.Host,
        _ when path.StartsWith("src/Experiments/", StringComparison.Ordinal) => ProjectRole.Experiments,
        _ when path.StartsWith("tests/", StringComparison.Ordinal) => ProjectRole.Test,
        _ when path.StartsWith("bench/", StringComparison.Ordinal) => ProjectRole.Benchmark,
        _ => ProjectRole.Unknown,
    };
}
