using CamCube.Hosting.Control;
using CamCube.Services;
using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace CamCube.Hosting;

/// <summary>What a node runs besides the runtime: its services, its front-ends and how it answers a health request.</summary>
public sealed class CamCubeNodeParts
{
    /// <summary>Gets the services registered on the node, in order, after the diagnostics services (ping, key probe) that every node runs.</summary>
    public IList<IService> Services { get; } = [];

    /// <summary>Gets the front-ends started after the services, in order.</summary>
    public IList<FrontEndFactory> FrontEnds { get; } = [];

    /// <summary>Gets the commands added to the node's control socket, by name.</summary>
    public IDictionary<string, ControlCommandHandler> Commands { get; } = new Dictionary<string, ControlCommandHandler>(StringComparer.Ordinal);

    /// <summary>Gets or sets what the control socket's <c>health</c> command runs; null runs <see cref="Health.CamCubeNodeHealthCheck"/> alone.</summary>
    public Func<CancellationToken, Task<HealthReport>>? Health { get; set; }

    /// <summary>Gets or sets the meter factory the runtime's instruments come from; null creates them unowned.</summary>
    public System.Diagnostics.Metrics.IMeterFactory? MeterFactory { get; set; }
}
