namespace CamCube.Cli.Cube;

/// <summary>
/// The lock a supervisor holds on its state directory for as long as it runs (an exclusive
/// <c>flock</c> on cube.lock, which .NET takes for <see cref="FileShare.None"/>): two
/// `cube up` on one directory cannot both run, and the lock goes with the process however it ends.
/// </summary>
internal sealed class StateLock : IDisposable
{
    private readonly FileStream _file;

    private StateLock(FileStream file) => _file = file;

    /// <summary>Takes the lock, or returns null when another process holds it.</summary>
    /// <exception cref="CommandFailedException">The lock file cannot be opened at all.</exception>
    public static StateLock? TryTake(CubeLayout layout)
    {
        var options = new FileStreamOptions { Mode = FileMode.OpenOrCreate, Access = FileAccess.ReadWrite, Share = FileShare.None };
        if (!OperatingSystem.IsWindows())
        {
            options.UnixCreateMode = UnixFileMode.UserRead | UnixFileMode.UserWrite;
        }

        try
        {
            return new StateLock(new FileStream(layout.LockFile, options));
        }
        catch (IOException) when (File.Exists(layout.LockFile))
        {
            return null;
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            throw new CommandFailedException($"cannot open the lock file '{layout.LockFile}': {CliApp.FirstLine(ex.Message)}");
        }
    }

    public void Dispose() => _file.Dispose();
}
