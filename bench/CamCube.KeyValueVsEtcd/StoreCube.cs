using System.Diagnostics;
using System.Globalization;
using System.Net;

namespace CamCube.KeyValueVsEtcd;

/// <summary>
/// A cube of node processes started by the driver with the CLI (<c>camcube cube up --detach</c>)
/// in a state directory of its own, its store's memcached front-ends on consecutive ports; stopped
/// (<c>cube down</c>) and its directory (with the nodes' SQLite databases) deleted on dispose.
/// </summary>
internal sealed class StoreCube : IAsyncDisposable
{
    private static readonly TimeSpan s_commandTimeout = TimeSpan.FromSeconds(150);
    private readonly string _cli;
    private readonly string _directory;
    private readonly int _portBase;

    private StoreCube(string cli, string directory, IReadOnlyList<IPEndPoint> frontEnds, int portBase)
    {
        _portBase = portBase;
        _cli = cli;
        _directory = directory;
        FrontEnds = frontEnds;
    }

    /// <summary>Gets the store's front-ends, node 0's first.</summary>
    public IReadOnlyList<IPEndPoint> FrontEnds { get; }

    /// <summary>Gets the cube's processes (supervisor and nodes): their command lines name its private UDP base port.</summary>
    public IReadOnlyList<int> ProcessIds =>
        ServerCpu.Find(["--base-port", _portBase.ToString(CultureInfo.InvariantCulture)], [$"--CamCube:BasePort={_portBase.ToString(CultureInfo.InvariantCulture)}"]);

    /// <summary>Starts the cube and waits until node 0's store front-end stores and reads a value.</summary>
    /// <param name="cli">The CLI's camcube.dll (a Release build).</param>
    /// <param name="options">The driver's options (shape, ports, the option that sets the store's port).</param>
    /// <param name="cancellationToken">Cancels the start.</param>
    /// <returns>The running cube.</returns>
    /// <exception cref="InvalidOperationException">The cube did not come up, or its store did not answer in time.</exception>
    public static async Task<StoreCube> StartAsync(string cli, DriverOptions options, CancellationToken cancellationToken)
    {
        var directory = Directory.CreateTempSubdirectory("camcube-kvbench-").FullName;
        var servers = options.CubeShape.Split('x').Aggregate(1, (n, side) => n * int.Parse(side, CultureInfo.InvariantCulture));
        var frontEnds = Enumerable.Range(0, servers).Select(i => new IPEndPoint(IPAddress.Loopback, options.StorePortBase + i)).ToList();
        var cube = new StoreCube(cli, directory, frontEnds, options.CubePortBase);
        try
        {
            List<string> up =
            [
                "cube", "up", "--shape", options.CubeShape, "--detach",
                "--base-port", options.CubePortBase.ToString(CultureInfo.InvariantCulture),
                options.StorePortOption, options.StorePortBase.ToString(CultureInfo.InvariantCulture),
                .. options.CubeArguments,
            ];
            var (code, output) = await cube.CliAsync(up, cancellationToken).ConfigureAwait(false);
            if (code != 0)
            {
                throw new InvalidOperationException($"camcube {string.Join(' ', up)} exited with {code}: {output}");
            }

            await WaitStoringAsync(frontEnds[0], TimeSpan.FromSeconds(120), cancellationToken).ConfigureAwait(false);
            return cube;
        }
        catch
        {
            await cube.DisposeAsync().ConfigureAwait(false);
            throw;
        }
    }

    /// <summary>Stops the cube (<c>cube down</c>) and deletes its state directory.</summary>
    public async ValueTask DisposeAsync()
    {
        await CliAsync(["cube", "down"], CancellationToken.None).ConfigureAwait(false);
        try
        {
            Directory.Delete(_directory, recursive: true);
        }
        catch (IOException)
        {
            // A node still writing its log as it exits; the directory is in the temporary folder.
        }
    }

    private static async Task WaitStoringAsync(IPEndPoint frontEnd, TimeSpan timeout, CancellationToken cancellationToken)
    {
        var value = ComparisonRun.Value(8);
        var deadline = Stopwatch.GetTimestamp() + (long)(timeout.TotalSeconds * Stopwatch.Frequency);
        string? last = null;
        while (Stopwatch.GetTimestamp() < deadline)
        {
            try
            {
                using var attempt = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
                attempt.CancelAfter(TimeSpan.FromSeconds(5));
                var client = await MemcachedBenchClient.ConnectAsync(frontEnd, attempt.Token).ConfigureAwait(false);
                await using (client.ConfigureAwait(false))
                {
                    await client.PutAsync("kvbench-ready", value, attempt.Token).ConfigureAwait(false);
                    if ((await client.GetAsync("kvbench-ready", attempt.Token).ConfigureAwait(false)).Length == value.Length)
                    {
                        return;
                    }
                }
            }
#pragma warning disable CA1031 // any failure means "not ready yet" until the deadline
            catch (Exception ex) when (!cancellationToken.IsCancellationRequested)
#pragma warning restore CA1031
            {
                last = ex.Message;
            }

            await Task.Delay(TimeSpan.FromSeconds(1), TimeProvider.System, cancellationToken).ConfigureAwait(false);
        }

        throw new InvalidOperationException(string.Create(CultureInfo.InvariantCulture, $"the store's front-end {frontEnd} did not store and read a value within {timeout.TotalSeconds:F0} s (last: {last})"));
    }

    private async Task<(int Code, string Output)> CliAsync(IEnumerable<string> arguments, CancellationToken cancellationToken)
    {
        var start = new ProcessStartInfo("dotnet") { UseShellExecute = false, RedirectStandardOutput = true, RedirectStandardError = true };
        start.ArgumentList.Add(_cli);
        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        start.Environment["CAMCUBE_STATE_DIR"] = _directory;
        using var process = Process.Start(start) ?? throw new InvalidOperationException($"could not run dotnet {_cli}");
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(s_commandTimeout);
        var stdout = process.StandardOutput.ReadToEndAsync(timeout.Token);
        var stderr = process.StandardError.ReadToEndAsync(timeout.Token);
        try
        {
            await process.WaitForExitAsync(timeout.Token).ConfigureAwait(false);
            return (process.ExitCode, (await stdout.ConfigureAwait(false)) + (await stderr.ConfigureAwait(false)));
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            return (-1, string.Create(CultureInfo.InvariantCulture, $"no exit within {s_commandTimeout.TotalSeconds:F0} s"));
        }
    }
}
