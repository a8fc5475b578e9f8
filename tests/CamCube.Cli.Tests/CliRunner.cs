using System.Diagnostics;
using System.Text;

namespace CamCube.Cli.Tests;

/// <summary>Runs <c>camcube</c> in process, or as a real child process.</summary>
internal static class CliRunner
{
    public static (int Exit, string Out, string Error) Run(string stdin, params string[] args)
    {
        using var output = new StringWriter();
        using var error = new StringWriter();
        using var input = new StringReader(stdin);
        var exit = CliApp.Run(args, new CliConsole(input, output, error));
        return (exit, output.ToString(), error.ToString());
    }

    public static (int Exit, string Out, string Error) RunProcess(string stdin, params string[] args) =>
        RunProcess(new UTF8Encoding(false).GetBytes(stdin), args);

    public static (int Exit, string Out, string Error) RunProcess(byte[] stdin, params string[] args)
    {
        var (exit, output, error) = RunProcessRaw(stdin, args);
        return (exit, new UTF8Encoding(false).GetString(output), error);
    }

    /// <summary>Runs camcube as a child process and gives back its standard output as the bytes it wrote.</summary>
    public static (int Exit, byte[] Out, string Error) RunProcessRaw(byte[] stdin, params string[] args)
    {
        var dll = Path.Combine(AppContext.BaseDirectory, "camcube.dll");
        var start = new ProcessStartInfo("dotnet")
        {
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        start.ArgumentList.Add(dll);
        foreach (var arg in args)
        {
            start.ArgumentList.Add(arg);
        }

        using var process = Process.Start(start)!;
        using var output = new MemoryStream();
        var outTask = process.StandardOutput.BaseStream.CopyToAsync(output);
        var errTask = process.StandardError.ReadToEndAsync();
        process.StandardInput.BaseStream.Write(stdin);
        process.StandardInput.Close();
        if (!process.WaitForExit(TimeSpan.FromMinutes(2)))
        {
            process.Kill(entireProcessTree: true);
            throw new TimeoutException("camcube did not exit within two minutes.");
        }

        outTask.Wait();
        return (process.ExitCode, output.ToArray(), errTask.Result);
    }
}
