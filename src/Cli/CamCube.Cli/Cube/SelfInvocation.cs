using System.Diagnostics;

namespace CamCube.Cli.Cube;

/// <summary>How to start another `camcube` process: the app host itself, or `dotnet camcube.dll`.</summary>
internal static class SelfInvocation
{
    public static ProcessStartInfo CreateStartInfo()
    {
        var processPath = Environment.ProcessPath ?? throw new InvalidOperationException("The path of this process is unknown; cannot start nodes.");
        var start = new ProcessStartInfo(processPath) { UseShellExecute = false };
        if (string.Equals(Path.GetFileNameWithoutExtension(processPath), "dotnet", StringComparison.OrdinalIgnoreCase))
        {
            start.ArgumentList.Add(typeof(SelfInvocation).Assembly.Location);
        }

        return start;
    }
}
