namespace CamCube.Integration.Tests;

/// <summary>Polls a condition on real processes until it holds or the patience runs out.</summary>
internal static class Wait
{
    public static bool Until(Func<bool> condition, TimeSpan timeout)
    {
        var deadline = TimeProvider.System.GetTimestamp() + (long)(timeout.TotalSeconds * TimeProvider.System.TimestampFrequency);
        while (TimeProvider.System.GetTimestamp() < deadline)
        {
            if (condition())
            {
                return true;
            }

            Task.Delay(TimeSpan.FromMilliseconds(50), TimeProvider.System).GetAwaiter().GetResult();
        }

        return condition();
    }

    /// <summary>Whether a process runs (a zombie waiting for its parent to reap it does not).</summary>
    public static bool IsAlive(int pid)
    {
        try
        {
            var stat = File.ReadAllText($"/proc/{pid}/stat");
            return stat[(stat.LastIndexOf(')') + 2)..][0] != 'Z';
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return false;
        }
    }

    /// <summary>The running processes whose command line mentions <paramref name="text"/> (a state directory, say).</summary>
    public static int[] ProcessesMentioning(string text)
    {
        var pids = new List<int>();
        foreach (var directory in Directory.GetDirectories("/proc"))
        {
            if (int.TryParse(Path.GetFileName(directory), out var pid) && pid != Environment.ProcessId && IsAlive(pid))
            {
                try
                {
                    if (File.ReadAllText(Path.Combine(directory, "cmdline")).Contains(text, StringComparison.Ordinal))
                    {
                        pids.Add(pid);
                    }
                }
                catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
                {
                    // It ended meanwhile.
                }
            }
        }

        return [.. pids];
    }
}
