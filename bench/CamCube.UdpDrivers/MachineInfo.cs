using System.Diagnostics;
using System.Globalization;
using System.Runtime.InteropServices;

namespace CamCube.UdpDrivers;

/// <summary>The machine a driver ran on: nproc, CPU model, load, OS, .NET SDK and runtime, date.</summary>
internal static class MachineInfo
{
    public static async Task<string> DescribeAsync()
    {
        var model = ReadFirst("/proc/cpuinfo", "model name") ?? RuntimeInformation.ProcessArchitecture.ToString();
        var load = File.Exists("/proc/loadavg") ? (await File.ReadAllTextAsync("/proc/loadavg").ConfigureAwait(false)).Trim() : "n/a";
        var sdk = await DotnetVersionAsync().ConfigureAwait(false);
        return string.Create(CultureInfo.InvariantCulture, $"""
            machine: nproc={Environment.ProcessorCount}  cpu={model}
                     os={RuntimeInformation.OSDescription}  dotnet --version={sdk}  runtime={RuntimeInformation.FrameworkDescription}
                     loadavg={load}  date={TimeProvider.System.GetUtcNow():yyyy-MM-dd HH:mm} UTC
            """);
    }

    private static string? ReadFirst(string path, string field)
    {
        if (!File.Exists(path))
        {
            return null;
        }

        foreach (var line in File.ReadLines(path))
        {
            if (line.StartsWith(field, StringComparison.Ordinal))
            {
                return line[(line.IndexOf(':', StringComparison.Ordinal) + 1)..].Trim();
            }
        }

        return null;
    }

    private static async Task<string> DotnetVersionAsync()
    {
        try
        {
            using var process = Process.Start(new ProcessStartInfo("dotnet", "--version") { RedirectStandardOutput = true, UseShellExecute = false });
            if (process is null)
            {
                return "n/a";
            }

            var text = await process.StandardOutput.ReadToEndAsync().ConfigureAwait(false);
            await process.WaitForExitAsync().ConfigureAwait(false);
            return text.Trim();
        }
        catch (System.ComponentModel.Win32Exception)
        {
            return "n/a";
        }
    }
}
