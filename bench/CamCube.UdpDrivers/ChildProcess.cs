using System.Diagnostics;

namespace CamCube.UdpDrivers;

/// <summary>
/// Another process of this driver (an echo server or a node) that prints <c>ready</c> when it
/// listens and exits when its standard input closes (or after its own time limit).
/// </summary>
internal sealed class ChildProcess : IAsyncDisposable
{
    private readonly Process _process;

    private ChildProcess(Process process) => _process = process;

    public int Id => _process.Id;

    public static async Task<ChildProcess> StartAsync(string mode, IReadOnlyDictionary<string, string> environment, TimeSpan readyTimeout, params string[] arguments)
    {
        var processPath = Environment.ProcessPath ?? throw new InvalidOperationException("The path of this process is unknown; cannot start a child process.");
        var start = new ProcessStartInfo(processPath)
        {
            UseShellExecute = false,
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
        };
        if (string.Equals(Path.GetFileNameWithoutExtension(processPath), "dotnet", StringComparison.OrdinalIgnoreCase))
        {
            start.ArgumentList.Add(typeof(ChildProcess).Assembly.Location);
        }

        start.ArgumentList.Add(mode);
        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        foreach (var (name, value) in environment)
        {
            start.Environment[name] = value;
        }

        var process = Process.Start(start) ?? throw new InvalidOperationException($"could not start '{mode}'");
        var child = new ChildProcess(process);
        try
        {
            using var timeout = new CancellationTokenSource(readyTimeout, TimeProvider.System);
            while (true)
            {
                var line = await process.StandardOutput.ReadLineAsync(timeout.Token).ConfigureAwait(false)
                    ?? throw new InvalidOperationException($"'{mode}' (pid {process.Id}) exited before it was ready");
                if (line == "ready")
                {
                    return child;
                }
            }
        }
        catch
        {
            await child.DisposeAsync().ConfigureAwait(false);
            throw;
        }
    }

    /// <summary>Closes the child's standard input, waits up to 10 s for it to exit, and kills it (this process only) if it has not.</summary>
    public async ValueTask DisposeAsync()
    {
        try
        {
            _process.StandardInput.Close();
            using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(10), TimeProvider.System);
            await _process.WaitForExitAsync(timeout.Token).ConfigureAwait(false);
        }
        catch (OperationCanceledException)
        {
            _process.Kill(entireProcessTree: false);
        }
        finally
        {
            _process.Dispose();
        }
    }
}
