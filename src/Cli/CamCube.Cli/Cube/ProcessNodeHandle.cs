using System.Diagnostics;
using CamCube.Hosting.Control;

namespace CamCube.Cli.Cube;

/// <summary>A node as a `camcube node` child process, its output in a log file.</summary>
internal sealed class ProcessNodeHandle(Coordinate self, CubeLayout layout, CubeOptions options) : INodeHandle
{
    private Process? _process;
    private Task _logComplete = Task.CompletedTask;

    public Coordinate Self { get; } = self;

    public int? ProcessId => IsRunning ? _process!.Id : null;

    public int? ControlProcessId => ProcessId;

    public bool IsRunning => _process is { HasExited: false };

    public Task LogCompleteAsync => _logComplete;

    public Task StartAsync(CancellationToken cancellationToken)
    {
        var start = options.NodeProgram is { } program ? ProgramStartInfo(program) : SelfInvocation.CreateStartInfo();
        if (options.NodeProgram is null)
        {
            start.ArgumentList.Add("node");
        }

        // The node stops when its standard input closes (ExitWithStdin): this process holds the pipe's
        // other end, so the node ends with its supervisor however the supervisor ends (kill -9 included).
        foreach (var arg in NodeLaunch.Arguments(Self, layout, options))
        {
            start.ArgumentList.Add(arg);
        }

        start.RedirectStandardOutput = true;
        start.RedirectStandardError = true;
        start.RedirectStandardInput = true;
        // The process may be seen exited before its last lines are read from the pipes: the log is
        // closed (and complete) only when both streams reached their end.
        var log = new NodeLog(new StreamWriter(layout.NodeLog(Self), append: true) { AutoFlush = true });
        var process = new Process { StartInfo = start, EnableRaisingEvents = true };
        process.OutputDataReceived += (_, e) => log.Write(e.Data);
        process.ErrorDataReceived += (_, e) => log.Write(e.Data);
        _logComplete = log.Complete;
        process.Start();
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        _process = process;
        return Task.CompletedTask;
    }

    public async Task KillAsync()
    {
        if (IsRunning)
        {
            _process!.Kill(entireProcessTree: true);
            await _process.WaitForExitAsync().ConfigureAwait(false);
        }
    }

    public async Task StopAsync(TimeSpan grace)
    {
        if (!IsRunning)
        {
            return;
        }

        await ControlClient.TryAskAsync(layout.NodeSocket(Self), "stop", ControlJsonContext.Default.Acknowledgement, TimeSpan.FromSeconds(2)).ConfigureAwait(false);
        using var wait = new CancellationTokenSource(grace);
        try
        {
            await _process!.WaitForExitAsync(wait.Token).ConfigureAwait(false);
        }
        catch (OperationCanceledException)
        {
            await KillAsync().ConfigureAwait(false);
        }
    }

    /// <summary>A node program: a .dll runs with the dotnet that runs this process (or the one on the path), anything else as an executable.</summary>
    private static ProcessStartInfo ProgramStartInfo(string program)
    {
        if (!program.EndsWith(".dll", StringComparison.OrdinalIgnoreCase))
        {
            return new ProcessStartInfo(program) { UseShellExecute = false };
        }

        var self = Environment.ProcessPath;
        var dotnet = self is not null && string.Equals(Path.GetFileNameWithoutExtension(self), "dotnet", StringComparison.OrdinalIgnoreCase) ? self : "dotnet";
        var start = new ProcessStartInfo(dotnet) { UseShellExecute = false };
        start.ArgumentList.Add(program);
        return start;
    }

    /// <summary>The log file both output streams of one node process write to; closed when both ended.</summary>
    private sealed class NodeLog(StreamWriter writer)
    {
        private readonly TaskCompletionSource _complete = new(TaskCreationOptions.RunContinuationsAsynchronously);
        private readonly Lock _gate = new();
        private int _openStreams = 2;

        public Task Complete => _complete.Task;

        /// <summary>Writes a line, or notes the end of a stream (a null line).</summary>
        public void Write(string? line)
        {
            lock (_gate)
            {
                if (line is not null)
                {
                    writer.WriteLine(line);
                    return;
                }

                if (--_openStreams == 0)
                {
                    writer.Dispose();
                    _complete.TrySetResult();
                }
            }
        }
    }
}
