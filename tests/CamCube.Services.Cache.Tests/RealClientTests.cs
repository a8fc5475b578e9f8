using System.Diagnostics;
using System.Globalization;

namespace CamCube.Services.Cache.Tests;

/// <summary>Debian's libmemcached-tools against a front-end of a real-time 3x3x3 cube (apt-get install libmemcached-tools).</summary>
[Collection(RealTimeGroup.Name)]
public class RealClientTests(FrontEndCubeFixture cube) : IClassFixture<FrontEndCubeFixture>
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromSeconds(120);

    [ToolFact("memccapable", "memcapable")]
    public async Task MemcapablePassesEveryAsciiTest()
    {
        var tool = ToolFactAttribute.Locate("memccapable", "memcapable")!;
        var (exitCode, output) = await RunAsync(tool, $"-a -v -t 10 -h 127.0.0.1 -p {cube.First.LocalEndPoint.Port.ToString(CultureInfo.InvariantCulture)}");
        Assert.True(exitCode == 0, output);
        Assert.DoesNotContain("[FAIL]", output, StringComparison.Ordinal);
    }

    [ToolFact("memcslap", "memslap")]
    public async Task MemcslapBoundedRunCompletesWithoutErrors()
    {
        var tool = ToolFactAttribute.Locate("memcslap", "memslap")!;
        var (exitCode, output) = await RunAsync(tool, $"--servers=127.0.0.1:{cube.Second.LocalEndPoint.Port.ToString(CultureInfo.InvariantCulture)} --concurrency=4 --execute-number=500 --test=set");
        Assert.True(exitCode == 0, output);
        (exitCode, output) = await RunAsync(tool, $"--servers=127.0.0.1:{cube.Second.LocalEndPoint.Port.ToString(CultureInfo.InvariantCulture)} --concurrency=4 --execute-number=500 --test=get");
        Assert.True(exitCode == 0, output);
    }

    private static async Task<(int ExitCode, string Output)> RunAsync(string tool, string arguments)
    {
        var start = new ProcessStartInfo(tool, arguments) { RedirectStandardOutput = true, RedirectStandardError = true };
        using var process = Process.Start(start)!;
        var stdout = process.StandardOutput.ReadToEndAsync();
        var stderr = process.StandardError.ReadToEndAsync();
        using var timeout = new CancellationTokenSource(s_timeout);
        try
        {
            await process.WaitForExitAsync(timeout.Token);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            throw new TimeoutException($"{tool} {arguments} did not finish within {s_timeout}: {await stdout}{await stderr}");
        }

        return (process.ExitCode, $"{tool} {arguments} exited with {process.ExitCode}:\n{await stdout}\n{await stderr}");
    }
}
