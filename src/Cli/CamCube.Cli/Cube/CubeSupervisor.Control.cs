using CamCube.Hosting.Control;
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
                return (ControlJson.Write(State(), CliJsonContext.Default.SupervisorStatus), false);
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
                    return (ControlJson.Write(new NodeChange { Killed = Format(node.Self) }, CliJsonContext.Default.NodeChange), false);
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
                    return (ControlJson.Write(new NodeChange { Started = Format(node.Self) }, CliJsonContext.Default.NodeChange), false);
                }

            case ["down"]:
                _downRequested.TrySetResult();
                return (ControlJson.Write(new Acknowledgement { Ok = true }, ControlJsonContext.Default.Acknowledgement), false);
            default:
                return (Error("commands: status, kill <x,y,z>, start <x,y,z>, down"), false);
        }
    }

    private SupervisorStatus State() => new()
    {
        Shape = Options.Shape.ToString(),
        BasePort = Options.BasePort,
        MemcachedBasePort = Options.MemcachedBasePort,
        KeyValueBasePort = Options.KeyValueBasePort,
        InProcess = Options.InProcess,
        NodeProgram = Options.NodeProgram,
        SupervisorPid = Environment.ProcessId,
        Instance = Options.Instance,
        StateDirectory = _layout.Directory,
        Nodes = _nodes.Select(n => new SupervisedNode(Format(n.Self), n.IsRunning, n.ProcessId, _layout.NodeSocket(n.Self))).ToArray(),
    };

    private static string Error(string message) => ControlJson.Error(message);
}
