using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Net.Sockets;

namespace CamCube.Services.Cache.Tests;

/// <summary>
/// A real memcached 1.6 (Debian's <c>memcached</c>) run by a test on a loopback port of its own, TCP
/// only, to compare the front-end's bytes with: <c>memcached -p PORT -U 0 -l 127.0.0.1 -vv</c>.
/// Ready once it reported its listening socket (-vv prints it after binding); killed on dispose.
/// </summary>
public sealed class MemcachedProcess : IAsyncLifetime
{
    private static readonly TimeSpan s_startTimeout = TimeSpan.FromSeconds(20);
    private readonly TaskCompletionSource _listening = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly List<string> _output = [];
    private Process? _process;

    /// <summary>Gets where memcached listens.</summary>
    public IPEndPoint EndPoint { get; private set; } = null!;

    public async Task InitializeAsync()
    {
        var path = ToolFactAttribute.Locate("memcached")
            ?? throw new InvalidOperationException("memcached is not installed, and the front-end is compared with it byte for byte: apt-get install -y memcached (.ci/run installs it).");
        EndPoint = new IPEndPoint(IPAddress.Loopback, FreePort());
        var arguments = $"-p {EndPoint.Port.ToString(CultureInfo.InvariantCulture)} -U 0 -l 127.0.0.1 -vv";

        // memcached refuses to run as root unless told which user to be.
        if (Environment.UserName == "root")
        {
            arguments += " -u root";
        }

        var start = new ProcessStartInfo(path, arguments) { RedirectStandardError = true, RedirectStandardOutput = true };
        _process = Process.Start(start) ?? throw new InvalidOperationException($"{path} {arguments} did not start.");
        _process.ErrorDataReceived += (_, line) => OnOutput(line.Data);
        _process.OutputDataReceived += (_, line) => OnOutput(line.Data);
        _process.Exited += (_, _) => _listening.TrySetException(new InvalidOperationException($"{path} {arguments} exited with {_process.ExitCode}: {Output}"));
        _process.EnableRaisingEvents = true;
        _process.BeginErrorReadLine();
        _process.BeginOutputReadLine();
        try
        {
            await _listening.Task.WaitAsync(s_startTimeout);
        }
        catch (TimeoutException)
        {
            throw new TimeoutException($"{path} {arguments} did not listen within {s_startTimeout}: {Output}");
        }
    }

    public Task DisposeAsync()
    {
        if (_process is { } process)
        {
            if (!process.HasExited)
            {
                process.Kill();
                process.WaitForExit();
            }

            process.Dispose();
        }

        return Task.CompletedTask;
    }

    private string Output
    {
        get
        {
            lock (_output)
            {
                return string.Join('\n', _output);
            }
        }
    }

    private void OnOutput(string? line)
    {
        if (line is null)
        {
            return;
        }

        // -vv logs every command afterwards; only the start-up lines are kept, for a failure message.
        lock (_output)
        {
            if (_output.Count < 100)
            {
                _output.Add(line);
            }
        }

        if (line.Contains("server listening", StringComparison.Ordinal))
        {
            _listening.TrySetResult();
        }
    }

    private static int FreePort()
    {
        using var probe = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        probe.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        return ((IPEndPoint)probe.LocalEndPoint!).Port;
    }
}
