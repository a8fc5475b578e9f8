using System.Diagnostics;
using System.Globalization;

namespace CamCube.Integration.Tests;

/// <summary>`camcube cube up` in the foreground as a child process, its output collected, for the tests of signals.</summary>
internal sealed class ForegroundCube : IDisposable
{
    private readonly List<string> _lines = [];
    private readonly TaskCompletionSource _up = new(TaskCreationOptions.RunContinuationsAsynchronously);

    private ForegroundCube(Process process) => Process = process;

    public Process Process { get; }

    /// <summary>Gets the lines written to standard output so far.</summary>
    public string[] Lines
    {
        get
        {
            lock (_lines)
            {
                return [.. _lines];
            }
        }
    }

    /// <summary>Starts `camcube &lt;args&gt;` with its state in <paramref name="stateDirectory"/> and waits until it says the cube is up.</summary>
    public static async Task<ForegroundCube> StartAsync(string stateDirectory, IEnumerable<string> args)
    {
        // Through env, which gives SIGHUP its default disposition back: under nohup (as a job may run
        // these tests) every child inherits SIGHUP ignored, and a cube started so rightly ignores a
        // closed terminal. camcube runs as if started from a terminal.
        var start = new ProcessStartInfo("env") { RedirectStandardOutput = true, RedirectStandardError = true, RedirectStandardInput = true, UseShellExecute = false };
        start.ArgumentList.Add("--default-signal=HUP");
        start.ArgumentList.Add("dotnet");
        start.ArgumentList.Add(Path.Combine(AppContext.BaseDirectory, "camcube.dll"));
        foreach (var arg in args)
        {
            start.ArgumentList.Add(arg);
        }

        start.Environment["CAMCUBE_STATE_DIR"] = stateDirectory;
        var cube = new ForegroundCube(Process.Start(start)!);
        cube.Process.OutputDataReceived += (_, e) => cube.Collect(e.Data);
        cube.Process.ErrorDataReceived += (_, e) => cube.Collect(e.Data is null ? null : "stderr: " + e.Data);
        cube.Process.BeginOutputReadLine();
        cube.Process.BeginErrorReadLine();
        await cube._up.Task.WaitAsync(TimeSpan.FromMinutes(2));
        return cube;
    }

    /// <summary>Sends a signal (INT, HUP, ...) and waits for the process to exit.</summary>
    public async Task SignalAndWaitAsync(string signal)
    {
        using (var kill = Process.Start("kill", ["-" + signal, Process.Id.ToString(CultureInfo.InvariantCulture)]))
        {
            await kill.WaitForExitAsync();
        }

        try
        {
            await Process.WaitForExitAsync().WaitAsync(TimeSpan.FromSeconds(30));
        }
        catch (TimeoutException ex)
        {
            // Say how far the cube got, so a rare hang on a busy machine can be told from a slow stop.
            throw new TimeoutException($"camcube did not exit within 30 s of SIG{signal}; its output so far:{Environment.NewLine}{string.Join(Environment.NewLine, Lines)}", ex);
        }
    }

    public void Dispose()
    {
        if (!Process.HasExited)
        {
            Process.Kill(entireProcessTree: true);
        }

        Process.Dispose();
    }

    private void Collect(string? line)
    {
        if (line is null)
        {
            return;
        }

        lock (_lines)
        {
            _lines.Add(line);
        }

        if (line.StartsWith("The cube is up", StringComparison.Ordinal))
        {
            _up.TrySetResult();
        }
    }
}
