using System.Text.Json;
using CamCube.Cli.Nodes;
using Microsoft.Extensions.Logging;

namespace CamCube.Cli.Cube;

/// <content>The supervisor's control socket: status, kill, start, down.</content>
internal sealed partial class CubeSupervisor
{
    private async Task<(string Response, bool Stop)> HandleAsync(string line, CancellationToken cancellationToken)
    {
        var words = line.Split(' ', StringSplitOptions.RemoveEmptyEntries);
        switch (words)
        {
            case ["status"]:
                return (Json(WriteState), false);
            case ["kill", var target]:
                {
                    var node = Find(target);
                    if (node is null)
                    {
                        return (Error($"'{target}' is not a coordinate of {Options.Shape}"), false);
                    }

                    if (!node.IsRunning)
                    {
                        return (Error($"node {Format(node.Self)} is not running (killed already, or it stopped); 'camcube cube start {Format(node.Self)}' starts it"), false);
                    }

                    await node.KillAsync().ConfigureAwait(false);
                    _logger.LogWarning("Killed node {Self}", node.Self);
                    return (Json(w => w.WriteString("killed", Format(node.Self))), false);
                }

            case ["start", var target]:
                {
                    var node = Find(target);
                    if (node is null)
                    {
                        return (Error($"'{target}' is not a coordinate of {Options.Shape}"), false);
                    }

                    if (node.IsRunning)
                    {
                        return (Error($"node {Format(node.Self)} is already running"), false);
                    }

                    await node.StartAsync(cancellationToken).ConfigureAwait(false);
                    try
                    {
                        await WaitReadyAsync([node], TimeSpan.FromSeconds(30), cancellationToken).ConfigureAwait(false);
                    }
                    catch (InvalidOperationException ex)
                    {
                        await node.KillAsync().ConfigureAwait(false);
                        return (Error(ex.Message), false);
                    }

                    _logger.LogInformation("Started node {Self}", node.Self);
                    return (Json(w => w.WriteString("started", Format(node.Self))), false);
                }

            case ["down"]:
                _downRequested.TrySetResult();
                return (Json(w => w.WriteBoolean("ok", true)), false);
            default:
                return (Error("commands: status, kill <x,y,z>, start <x,y,z>, down"), false);
        }
    }

    private void WriteState(Utf8JsonWriter w)
    {
        w.WriteString("shape", Options.Shape.ToString());
        w.WriteNumber("basePort", Options.BasePort);
        if (Options.MemcachedBasePort is { } memcached)
        {
            w.WriteNumber("memcachedBasePort", memcached);
        }

        w.WriteBoolean("inProcess", Options.InProcess);
        w.WriteNumber("supervisorPid", Environment.ProcessId);
        if (Options.Instance is not null)
        {
            w.WriteString("instance", Options.Instance);
        }

        w.WriteString("stateDirectory", _layout.Directory);
        w.WriteStartArray("nodes");
        foreach (var node in _nodes)
        {
            w.WriteStartObject();
            w.WriteString("coord", Format(node.Self));
            w.WriteBoolean("running", node.IsRunning);
            if (node.ProcessId is { } pid)
            {
                w.WriteNumber("pid", pid);
            }

            w.WriteString("controlSocket", _layout.NodeSocket(node.Self));
            w.WriteEndObject();
        }

        w.WriteEndArray();
    }

    private static string Error(string message) => ControlResponses.Error(message);

    private static string Json(Action<Utf8JsonWriter> write) => ControlResponses.Json(write);
}
