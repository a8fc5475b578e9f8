namespace CamCube.Hosting.Control;

/// <summary>The answer to <c>health</c>: the host's health checks (<c>Microsoft.Extensions.Diagnostics.HealthChecks</c>) as run just now.</summary>
public sealed record HealthResult : ControlResponse
{
    /// <summary>Gets the worst status of every check: <c>Healthy</c>, <c>Degraded</c> or <c>Unhealthy</c>.</summary>
    public string Status { get; init; } = "";

    /// <summary>Gets each check's outcome.</summary>
    public IReadOnlyList<HealthCheckLine> Checks { get; init; } = [];
}
