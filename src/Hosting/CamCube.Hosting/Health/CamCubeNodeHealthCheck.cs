using System.Globalization;
using CamCube.Transport;
using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace CamCube.Hosting.Health;

/// <summary>
/// The node's health: unhealthy when it does not run or its event loop does not answer within
/// <see cref="LoopResponseMax"/>; degraded while a link is down or a server is unreachable (the
/// node still serves: camcubeos 3.2, routing goes around a failure); healthy otherwise.
/// </summary>
public sealed class CamCubeNodeHealthCheck(CamCubeNodeAccessor accessor) : IHealthCheck
{
    /// <summary>The check's name in a health report.</summary>
    public const string Name = "camcube-node";

    /// <summary>The longest the event loop may take to run a work item before the node counts as unresponsive.</summary>
    public static readonly TimeSpan LoopResponseMax = TimeSpan.FromSeconds(2);

    /// <inheritdoc/>
    public Task<HealthCheckResult> CheckHealthAsync(HealthCheckContext context, CancellationToken cancellationToken = default) =>
        accessor.Node is { } node
            ? CheckAsync(node, cancellationToken)
            : Task.FromResult(HealthCheckResult.Unhealthy("the node is not running"));

    /// <summary>Checks one node.</summary>
    /// <param name="node">The node.</param>
    /// <param name="cancellationToken">Cancels the check.</param>
    /// <returns>The check's result.</returns>
    public static async Task<HealthCheckResult> CheckAsync(CamCubeNode node, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(node);
        (int LinksUp, long Reachable, bool Running) snapshot;
        try
        {
            snapshot = await node.Loop.InvokeAsync(() =>
            {
                var up = 0;
                for (var d = 0; d < LinkDirections.Count; d++)
                {
                    up += node.Node.IsLinkUp((LinkDirection)d) ? 1 : 0;
                }

                return (up, node.Node.Reachability.ReachableCount, node.Node.IsRunning);
            }).WaitAsync(LoopResponseMax, TimeProvider.System, cancellationToken).ConfigureAwait(false);
        }
        catch (TimeoutException)
        {
            return HealthCheckResult.Unhealthy(string.Create(CultureInfo.InvariantCulture, $"the event loop did not answer within {LoopResponseMax.TotalSeconds} s"));
        }

        if (!snapshot.Running)
        {
            return HealthCheckResult.Unhealthy("the runtime has stopped");
        }

        var shape = node.Shape;
        var description = string.Create(CultureInfo.InvariantCulture, $"{snapshot.LinksUp} of {shape.LinkCount} links up, {snapshot.Reachable} of {shape.ServerCount} servers reachable");
        var data = new Dictionary<string, object>
        {
            ["linksUp"] = snapshot.LinksUp,
            ["linkCount"] = shape.LinkCount,
            ["reachable"] = snapshot.Reachable,
            ["serverCount"] = shape.ServerCount,
        };
        return snapshot.LinksUp == shape.LinkCount && snapshot.Reachable == shape.ServerCount
            ? HealthCheckResult.Healthy(description, data)
            : HealthCheckResult.Degraded(description, data: data);
    }

    /// <summary>A report of this check alone, for a node started without a host.</summary>
    internal static async Task<HealthReport> ReportAsync(CamCubeNode node, CancellationToken cancellationToken)
    {
        var start = TimeProvider.System.GetTimestamp();
        var result = await CheckAsync(node, cancellationToken).ConfigureAwait(false);
        var elapsed = TimeProvider.System.GetElapsedTime(start);
        var entry = new HealthReportEntry(result.Status, result.Description, elapsed, result.Exception, result.Data);
        return new HealthReport(new Dictionary<string, HealthReportEntry> { [Name] = entry }, elapsed);
    }
}
