namespace CamCube.Cli.Tests;

/// <summary>A private directory under /tmp for one test (short, so control sockets fit), removed afterwards.</summary>
[System.Runtime.Versioning.UnsupportedOSPlatform("windows")]
internal sealed class TemporaryDirectory : IDisposable
{
    public TemporaryDirectory()
    {
        Path = System.IO.Path.Combine("/tmp", "cct-" + Guid.NewGuid().ToString("N")[..10]);
        Directory.CreateDirectory(Path, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);
    }

    public string Path { get; }

    public void Dispose()
    {
        if (Directory.Exists(Path))
        {
            Directory.Delete(Path, recursive: true);
        }
    }
}
