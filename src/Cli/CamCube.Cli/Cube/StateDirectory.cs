namespace CamCube.Cli.Cube;

/// <summary>
/// Keeps a cube's state directory private: it holds the cluster key and the control sockets, so a
/// directory that another user owns or may write to (where they could swap the key or a socket, or
/// read a key file they made) is refused rather than used.
/// </summary>
internal static class StateDirectory
{
    /// <summary>The mode of a directory or file only its owner may use.</summary>
    public const UnixFileMode Private = UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute;

    /// <summary>Creates a directory with mode 0700 (and its parents), or checks that an existing one is private.</summary>
    /// <exception cref="CommandFailedException">The path is a file, cannot be created, or is not safe; the message says which.</exception>
    public static void EnsurePrivate(string directory)
    {
        if (File.Exists(directory))
        {
            throw new CommandFailedException($"the state directory '{directory}' is a file, not a directory; remove it or choose another ({CubeLayout.StateDirectoryVariable} or --state-dir).");
        }

        if (!Directory.Exists(directory))
        {
            try
            {
                if (OperatingSystem.IsWindows())
                {
                    Directory.CreateDirectory(directory);
                }
                else
                {
                    Directory.CreateDirectory(directory, Private);
                }
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
                throw new CommandFailedException($"cannot create the state directory '{directory}': {CliApp.FirstLine(ex.Message)}");
            }
        }

        CheckPrivate(directory);
    }

    /// <summary>Checks that a directory is a real directory owned by this user and not writable by group or others.</summary>
    /// <exception cref="CommandFailedException">It is not; the message says why and what to do.</exception>
    public static void CheckPrivate(string directory)
    {
        if (OperatingSystem.IsWindows())
        {
            return;
        }

        var info = new DirectoryInfo(directory);
        if (info.LinkTarget is not null)
        {
            throw new CommandFailedException($"the state directory '{directory}' is a symbolic link; give the real directory ({CubeLayout.StateDirectoryVariable} or --state-dir).");
        }

        if (UnixFileOwner.IsSupported)
        {
            var owner = UnixFileOwner.OwnerOf(directory);
            var self = UnixFileOwner.EffectiveUserId;
            if (owner != self)
            {
                throw new CommandFailedException(
                    $"the state directory '{directory}' belongs to user id {owner}, not to you (user id {self}): its owner could read or replace the cluster key; remove it or choose another ({CubeLayout.StateDirectoryVariable} or --state-dir).");
            }
        }

        var mode = info.UnixFileMode;
        if ((mode & (UnixFileMode.GroupWrite | UnixFileMode.OtherWrite)) != 0)
        {
            throw new CommandFailedException(
                $"the state directory '{directory}' can be written by other users (mode {Octal(mode)}): they could replace the cluster key or a control socket; 'chmod go-w {directory}' or choose another.");
        }
    }

    /// <summary>Creates a subdirectory of a private state directory, private too.</summary>
    public static void CreatePrivate(string directory)
    {
        if (OperatingSystem.IsWindows())
        {
            Directory.CreateDirectory(directory);
        }
        else
        {
            Directory.CreateDirectory(directory, Private);
        }
    }

    private static string Octal(UnixFileMode mode) => "0" + Convert.ToString((int)mode & 0xFFF, 8);
}
