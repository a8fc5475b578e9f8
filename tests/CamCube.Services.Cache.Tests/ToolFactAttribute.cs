namespace CamCube.Services.Cache.Tests;

/// <summary>A fact that is skipped, with a message saying what to install, only when none of the named tools is on the PATH.</summary>
[AttributeUsage(AttributeTargets.Method)]
public sealed class ToolFactAttribute : FactAttribute
{
    public ToolFactAttribute(params string[] names)
    {
        Names = names;
        if (Locate(names) is null)
        {
            Skip = $"{string.Join(" / ", names)} is not installed; install Debian's libmemcached-tools (apt-get install -y libmemcached-tools) to run this test.";
        }
    }

    public IReadOnlyList<string> Names { get; }

    /// <summary>Gets the full path of the first of <paramref name="names"/> found on the PATH, or null.</summary>
    public static string? Locate(params string[] names)
    {
        foreach (var name in names)
        {
            foreach (var directory in (Environment.GetEnvironmentVariable("PATH") ?? "/usr/bin").Split(Path.PathSeparator))
            {
                var path = Path.Combine(directory, name);
                if (File.Exists(path))
                {
                    return path;
                }
            }
        }

        return null;
    }
}
