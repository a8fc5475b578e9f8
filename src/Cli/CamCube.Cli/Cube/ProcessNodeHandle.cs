using System.Diagnostics;
using CamCube.Hosting.Control;

namespace CamCube.Cli.Cube;

/// <summary>A node as a `camcube node` child process, its output in a log file.</summary>
internal sealed class ProcessNodeHandle(Coordinate self, CubeLayout layout, CubeOptions options) : INodeHandle
{
    private Process? _process;

    public Coordinate Self { get; } = self;

    public int? ProcessId => IsRunning ? _process!.Id : null;

    public int? ControlProcessId => ProcessId;

    public bool IsRunning => _process is { HasExited: false };

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
        var log = new StreamWriter(layout.NodeLog(Self), append: true) { AutoFlush = true };
        var process = new Process { StartInfo = start, EnableRaisingEvents = true };
        process.OutputDataReceived += (_, e) => Write(log, e.Data);
        process.ErrorDataReceived += (_, e) => Write(log, e.Data);
        process.Exited += (_, _) => log.Dispose();
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

    private static void Write(StreamWriter log, string? line)
    {
        if (line is null)
        {
            return;
        }

        lock (log)
        {
            try
            {
                log.WriteLine(line);
            }
            catch (ObjectDisposedException)
            {
                // The process exited and its log is closed; its last words are already written.
            }
        }
    }
}
