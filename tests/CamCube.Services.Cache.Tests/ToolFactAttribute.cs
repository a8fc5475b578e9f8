namespace CamCube.Services.Cache.Tests;

/// <summary>
/// A fact that is skipped, with a message saying what to install, only when none of the named tools
/// is on the PATH, and never under CI (<c>CI=true</c>, where .ci/run installs the tools): there the
/// test runs and fails on the missing tool.
/// </summary>
[AttributeUsage(AttributeTargets.Method)]
public sealed class ToolFactAttribute : FactAttribute
{
    public ToolFactAttribute(params string[] names)
    {
        Names = names;
    }

    public IReadOnlyList<string> Names { get; }

    /// <summary>Gets or sets the Debian package that provides the tools.</summary>
    public string Package { get; set; } = "libmemcached-tools";

    /// <inheritdoc/>
    public override string Skip
    {
        get => base.Skip ?? (IsCi || Locate([.. Names]) is not null ? null! : $"{string.Join(" / ", Names)} is not installed; install Debian's {Package} (apt-get install -y {Package}) to run this test.");
        set => base.Skip = value;
    }

    /// <summary>Gets whether the tests run under CI, where every tool must be there.</summary>
    public static bool IsCi => Environment.GetEnvironmentVariable("CI") == "true";

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
