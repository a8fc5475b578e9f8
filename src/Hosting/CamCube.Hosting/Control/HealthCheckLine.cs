namespace CamCube.Hosting.Control;

/// <summary>One health check's outcome.</summary>
/// <param name="Name">The check's name, such as <c>camcube-node</c>.</param>
/// <param name="Status"><c>Healthy</c>, <c>Degraded</c> or <c>Unhealthy</c>.</param>
/// <param name="Description">What the check found, such as <c>6 of 6 links up, 27 of 27 servers reachable</c>.</param>
public sealed record HealthCheckLine(string Name, string Status, string? Description);
