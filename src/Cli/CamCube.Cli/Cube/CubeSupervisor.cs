using System.Globalization;
using CamCube.Hosting.Control;
using CamCube.Transport.Udp;
using Microsoft.Extensions.Logging;

namespace CamCube.Cli.Cube;

/// <summary>
/// Runs a cube on this machine (`camcube cube up`): one node per server, as child processes (the
/// default, like the papers' servers) or inside this process; answers `camcube cube status, kill,
/// start, down` on its control socket; and stops every node when told to.
/// </summary>
internal sealed partial class CubeSupervisor : IAsyncDisposable
{
    /// <summary>The longest reason quoted from a node's log, in characters.</summary>
    private const int ReasonCharsMax = 300;

    /// <summary>How long a node that exited may take to have its last output lines reach its log.</summary>
    private static readonly TimeSpan s_logDrainTimeout = TimeSpan.FromSeconds(5);

    private readonly CubeLayout _layout;
    private readonly ILogger _logger;
    private readonly INodeHandle[] _nodes;
    private readonly TaskCompletionSource _downRequested = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private ControlServer? _control;
    private bool _started;

    public CubeSupervisor(CubeLayout layout, CubeOptions options, ILoggerFactory loggerFactory)
    {
        _layout = layout;
        Options = options;
        _logger = loggerFactory.CreateLogger("CamCube.Cube");
        _nodes = new INodeHandle[options.Shape.ServerCount];
        for (long i = 0; i < options.Shape.ServerCount; i++)
        {
            var c = options.Shape.CoordinateAt(i);
            _nodes[i] = options.InProcess ? new InProcessNodeHandle(c, layout, options, loggerFactory) : new ProcessNodeHandle(c, layout, options);
        }
    }

    public CubeOptions Options { get; }

    /// <summary>Gets a task that completes when `camcube cube down` asks the cube to stop.</summary>
    public Task DownRequested => _downRequested.Task;

    /// <summary>
    /// Refuses to start over a cube that still answers in this state directory: a supervisor (one
    /// that holds no lock) or nodes that outlived theirs. Touches nothing.
    /// </summary>
    /// <exception cref="CommandFailedException">Something answers; the message names it.</exception>
    public async Task CheckNothingRunsAsync()
    {
        if (await ControlClient.TryAskAsync(_layout.SupervisorSocket, "status", CliJsonContext.Default.SupervisorStatus, TimeSpan.FromSeconds(2)).ConfigureAwait(false) is { } running)
        {
            throw new CommandFailedException($"a cube is already running (supervisor pid {running.SupervisorPid}, state in {_layout.Directory}); stop it with 'camcube cube down' first.");
        }

        var strays = new List<string>();
        foreach (var node in _nodes)
        {
            var status = await ControlClient.TryAskAsync(_layout.NodeSocket(node.Self), "status", ControlJsonContext.Default.NodeStatus, TimeSpan.FromSeconds(1)).ConfigureAwait(false);
            if (status is not null)
            {
                strays.Add(string.Create(CultureInfo.InvariantCulture, $"{Format(node.Self)} (pid {status.Pid})"));
            }
        }

        if (strays.Count > 0)
        {
            throw new CommandFailedException(
                $"{strays.Count} nodes of an earlier cube still answer in {_layout.Directory} without a supervisor, for example {string.Join(", ", strays.Take(3))}; stop them (kill PID) and try again.");
        }
    }

    /// <summary>Writes a fresh key, starts every node and waits until each of them (not an older process) answers on its control socket.</summary>
    /// <exception cref="InvalidOperationException">A node failed to start (the message quotes its log).</exception>
    public async Task StartAsync(TimeSpan readyTimeout, CancellationToken cancellationToken)
    {
        _started = true;
        StateDirectory.CreatePrivate(Path.Combine(_layout.Directory, "nodes"));
        StateDirectory.CreatePrivate(_layout.LogDirectory);
        StateDirectory.CreatePrivate(_layout.DataDirectory);
        WriteKeyFile();
        await Task.WhenAll(_nodes.Select(n => n.StartAsync(cancellationToken))).ConfigureAwait(false);
        await WaitReadyAsync(_nodes, readyTimeout, cancellationToken).ConfigureAwait(false);
        _control = new ControlServer(_layout.SupervisorSocket, HandleAsync, _logger);
        _control.Start();
        _logger.LogInformation("Cube {Shape} is up: {Count} nodes, UDP ports {First}-{Last}", Options.Shape, _nodes.Length, Options.BasePort, Options.BasePort + _nodes.Length - 1);
    }

    /// <summary>Stops every node cleanly (killing those that do not stop in time) and removes the control socket.</summary>
    public async ValueTask DisposeAsync()
    {
        if (_control is not null)
        {
            await _control.DisposeAsync().ConfigureAwait(false);
        }

        if (!_started)
        {
            return;
        }

        await Task.WhenAll(_nodes.Select(n => n.StopAsync(TimeSpan.FromSeconds(5)))).ConfigureAwait(false);
        if (File.Exists(_layout.KeyFile))
        {
            File.Delete(_layout.KeyFile);
        }
    }

    /// <summary>Gets every node's status from its control socket (null for a node that does not answer).</summary>
    public async Task<(Coordinate Self, int? Pid, NodeStatus? Status)[]> GetStatusesAsync()
    {
        var statuses = await Task.WhenAll(_nodes.Select(async n =>
            (n.Self, n.ProcessId, n.IsRunning ? await ControlClient.TryAskAsync(_layout.NodeSocket(n.Self), "status", ControlJsonContext.Default.NodeStatus, TimeSpan.FromSeconds(2)).ConfigureAwait(false) : null))).ConfigureAwait(false);
        return statuses;
    }

    /// <summary>
    /// Writes a fresh key to a new file of mode 0600 and renames it over cluster.key: an existing
    /// file's mode (or owner) is never reused.
    /// </summary>
    private void WriteKeyFile()
    {
        var key = ClusterKey.CreateRandom();
        var temporary = _layout.KeyFile + "." + Guid.NewGuid().ToString("N") + ".new";
        var options = new FileStreamOptions { Mode = FileMode.CreateNew, Access = FileAccess.Write };
        if (!OperatingSystem.IsWindows())
        {
            options.UnixCreateMode = UnixFileMode.UserRead | UnixFileMode.UserWrite;
        }

        using (var stream = new FileStream(temporary, options))
        using (var writer = new StreamWriter(stream))
        {
            writer.Write(key.ToHexString());
        }

        File.Move(temporary, _layout.KeyFile, overwrite: true);
    }

    /// <summary>Waits until each node answers on its control socket from the process it runs in (so a stray older node on the same socket does not count).</summary>
    private async Task WaitReadyAsync(IReadOnlyCollection<INodeHandle> nodes, TimeSpan timeout, CancellationToken cancellationToken)
    {
        var deadline = TimeProvider.System.GetTimestamp() + (long)(timeout.TotalSeconds * TimeProvider.System.TimestampFrequency);
        var pending = nodes.ToList();
        while (pending.Count > 0)
        {
            cancellationToken.ThrowIfCancellationRequested();
            foreach (var node in pending.ToArray())
            {
                if (!node.IsRunning)
                {
                    // Its last words may still be on their way from its output pipes to its log.
                    await Task.WhenAny(node.LogCompleteAsync, Task.Delay(s_logDrainTimeout, cancellationToken)).ConfigureAwait(false);
                    throw new InvalidOperationException($"node {node.Self} exited while starting: {NodeLogReason(_layout.NodeLog(node.Self))}");
                }

                var status = await ControlClient.TryAskAsync(_layout.NodeSocket(node.Self), "status", ControlJsonContext.Default.NodeStatus, TimeSpan.FromSeconds(1)).ConfigureAwait(false);
                if (status is not null && status.Pid == node.ControlProcessId)
                {
                    pending.Remove(node);
                }
            }

            if (pending.Count > 0 && TimeProvider.System.GetTimestamp() > deadline)
            {
                throw new InvalidOperationException($"{pending.Count} nodes did not answer within {timeout.TotalSeconds:0} s, for example {pending[0].Self}: {NodeLogReason(_layout.NodeLog(pending[0].Self))}");
            }

            if (pending.Count > 0)
            {
                await Task.Delay(TimeSpan.FromMilliseconds(100), TimeProvider.System, cancellationToken).ConfigureAwait(false);
            }
        }
    }

    /// <summary>Why a node did not start, from its log: its one 'camcube node:' (or usage error) line, else its last line (a node program's one-line error).</summary>
    internal static string NodeLogReason(string path)
    {
        if (!File.Exists(path))
        {
            return "(no log)";
        }

        using var stream = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite);
        using var reader = new StreamReader(stream);
        var lines = reader.ReadToEnd().Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        if (lines.Length == 0)
        {
            return "(empty log)";
        }

        var reason = Array.FindLast(lines, l => l.StartsWith("camcube node:", StringComparison.Ordinal) || l.StartsWith("camcube: ", StringComparison.Ordinal)) ?? lines[^1];
        return reason.Length <= ReasonCharsMax ? reason : reason[..ReasonCharsMax] + " ...";
    }

    private INodeHandle? Find(string text) =>
        Coordinate.TryParse(text, out var c) && Options.Shape.Contains(c) ? _nodes[Options.Shape.IndexOf(c)] : null;

    private static string Format(Coordinate c) => string.Create(CultureInfo.InvariantCulture, $"{c.X},{c.Y},{c.Z}");
}
