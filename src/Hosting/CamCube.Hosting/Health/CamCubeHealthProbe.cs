using System.Globalization;
using CamCube.Hosting.Control;

namespace CamCube.Hosting.Health;

/// <summary>
/// Asks a running node for its health over its control socket and turns the answer into an exit
/// code, for container probes (compose's healthcheck, Kubernetes' exec probes): 0 while the node is
/// healthy or degraded (it serves, routing around what failed), 1 when it is unhealthy or does not answer.
/// </summary>
public static class CamCubeHealthProbe
{
    /// <summary>How long the probe waits for the node's answer.</summary>
    public static readonly TimeSpan AnswerTimeout = TimeSpan.FromSeconds(5);

    /// <summary>Asks the node on <paramref name="controlSocket"/> and writes one line, such as <c>Healthy: 6 of 6 links up, 27 of 27 servers reachable</c>.</summary>
    /// <param name="controlSocket">The node's control socket.</param>
    /// <param name="output">Where the line goes.</param>
    /// <returns>0 when the node is healthy or degraded, 1 otherwise.</returns>
    public static async Task<int> AskAsync(string controlSocket, TextWriter output)
    {
        ArgumentNullException.ThrowIfNull(controlSocket);
        ArgumentNullException.ThrowIfNull(output);
        var answer = await ControlClient.TryAskAsync(controlSocket, "health", ControlJsonContext.Default.HealthResult, AnswerTimeout).ConfigureAwait(false);
        if (answer is null)
        {
            await output.WriteLineAsync(string.Create(CultureInfo.InvariantCulture, $"Unhealthy: no node answers on {controlSocket} within {AnswerTimeout.TotalSeconds} s")).ConfigureAwait(false);
            return 1;
        }

        if (answer.Error is { } error)
        {
            await output.WriteLineAsync($"Unhealthy: {error}").ConfigureAwait(false);
            return 1;
        }

        var details = string.Join("; ", answer.Checks.Select(c => c.Status == answer.Status ? c.Description : $"{c.Name} {c.Status}: {c.Description}"));
        await output.WriteLineAsync($"{answer.Status}: {details}").ConfigureAwait(false);
        return answer.Status is "Healthy" or "Degraded" ? 0 : 1;
    }
}
