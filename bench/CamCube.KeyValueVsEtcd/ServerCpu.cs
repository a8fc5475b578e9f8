using System.Globalization;

namespace CamCube.KeyValueVsEtcd;

/// <summary>
/// CPU time (user + system) used so far by a target's server processes, from <c>/proc/PID/stat</c>;
/// on a shared machine the CPU per operation moves less with other work than throughput does.
/// </summary>
internal static class ServerCpu
{
    /// <summary>Linux's USER_HZ: the unit of the times in <c>/proc/PID/stat</c>.</summary>
    private const double TicksPerSecond = 100;

    /// <summary>The CPU time the processes used so far, in seconds (a process that is gone counts 0).</summary>
    /// <param name="processIds">The processes.</param>
    /// <returns>The sum over the processes.</returns>
    public static double Seconds(IEnumerable<int> processIds)
    {
        long ticks = 0;
        foreach (var pid in processIds)
        {
            try
            {
                var stat = File.ReadAllText($"/proc/{pid.ToString(CultureInfo.InvariantCulture)}/stat");

                // After "pid (comm) ", whose comm may hold spaces: state is field 3, utime 14, stime 15.
                var fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
                ticks += long.Parse(fields[11], CultureInfo.InvariantCulture) + long.Parse(fields[12], CultureInfo.InvariantCulture);
            }
            catch (IOException)
            {
            }
            catch (UnauthorizedAccessException)
            {
            }
        }

        return ticks / TicksPerSecond;
    }

    /// <summary>The processes whose command line holds one of <paramref name="needles"/> as a run of arguments (for a cube: its private UDP port).</summary>
    /// <param name="needles">Argument sequences, any of which identifies a process, e.g. ["--base-port", "25300"].</param>
    /// <returns>The process ids.</returns>
    public static IReadOnlyList<int> Find(params IReadOnlyList<string>[] needles)
    {
        var found = new List<int>();
        foreach (var directory in Directory.EnumerateDirectories("/proc"))
        {
            if (!int.TryParse(Path.GetFileName(directory), NumberStyles.None, CultureInfo.InvariantCulture, out var pid))
            {
                continue;
            }

            try
            {
                var arguments = File.ReadAllText(Path.Combine(directory, "cmdline")).Split('\0');
                if (needles.Any(needle => Contains(arguments, needle)))
                {
                    found.Add(pid);
                }
            }
            catch (IOException)
            {
            }
            catch (UnauthorizedAccessException)
            {
            }
        }

        return found;
    }

    private static bool Contains(string[] arguments, IReadOnlyList<string> needle)
    {
        for (var i = 0; i + needle.Count <= arguments.Length; i++)
        {
            if (needle.Select((n, j) => n == arguments[i + j]).All(match => match))
            {
                return true;
            }
        }

        return false;
    }
}
