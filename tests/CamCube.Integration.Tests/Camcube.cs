using System.Diagnostics;

namespace CamCube.Integration.Tests;

/// <summary>Runs the real `camcube` command as a child process.</summary>
internal static class Camcube
{
    public static (int Exit, string Out, string Error) Run(string stateDirectory, params string[] args)
    {
        var start = new ProcessStartInfo("dotnet")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            RedirectStandardInput = true,
            UseShellExecute = false,
        };
        start.ArgumentList.Add(Path.Combine(AppContext.BaseDirectory, "camcube.dll"));
        foreach (var arg in args)
        {
            start.ArgumentList.Add(arg);
        }

        start.Environment["CAMCUBE_STATE_DIR"] = stateDirectory;
        using var process = Process.Start(start)!;
        process.StandardInput.Close();
        var output = process.StandardOutput.ReadToEndAsync();
        var error = process.StandardError.ReadToEndAsync();
        if (!process.WaitForExit(TimeSpan.FromMinutes(3)))
        {
            process.Kill(entireProcessTree: true);
            throw new TimeoutException($"camcube {string.Join(' ', args)} did not finish within 3 minutes.");
        }

        return (process.ExitCode, output.Result, error.Result);
    }
}
