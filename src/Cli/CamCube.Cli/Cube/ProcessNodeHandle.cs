using System.Diagnostics;
using System.Globalization;

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
        var start = SelfInvocation.CreateStartInfo();
        var args = start.ArgumentList;
        args.Add("node");
        args.Add("--shape");
        args.Add(options.Shape.ToString());
        args.Add("--coord");
        args.Add(string.Create(CultureInfo.InvariantCulture, $"{Self.X},{Self.Y},{Self.Z}"));
        args.Add("--base-port");
        args.Add(options.BasePort.ToString(CultureInfo.InvariantCulture));
        args.Add("--key-file");
        args.Add(layout.KeyFile);
        args.Add("--control-socket");
        args.Add(layout.NodeSocket(Self));
        args.Add("--heartbeat-ms");
        args.Add(options.HeartbeatMilliseconds.ToString(CultureInfo.InvariantCulture));
        args.Add("--timeout-ms");
        args.Add(options.TimeoutMilliseconds.ToString(CultureInfo.InvariantCulture));
        if (options.MemcachedBasePort is { } memcached)
        {
            args.Add("--memcached-port");
            args.Add((memcached + options.Shape.IndexOf(Self)).ToString(CultureInfo.InvariantCulture));
        }

        // The node stops when its standard input closes: this process holds the pipe's other end,
        // so the node ends with its supervisor however the supervisor ends (kill -9 included).
        args.Add("--exit-with-stdin");
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

        await ControlClient.TryAskAsync(layout.NodeSocket(Self), "stop", TimeSpan.FromSeconds(2)).ConfigureAwait(false);
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
