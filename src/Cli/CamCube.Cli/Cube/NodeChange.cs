using CamCube.Hosting.Control;

namespace CamCube.Cli.Cube;

/// <summary>The answer to the supervisor's <c>kill</c> or <c>start</c>.</summary>
internal sealed record NodeChange : ControlResponse
{
    public string? Killed { get; init; }

    public string? Started { get; init; }
}
