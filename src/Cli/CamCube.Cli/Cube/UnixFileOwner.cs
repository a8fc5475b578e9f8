using System.Runtime.InteropServices;

namespace CamCube.Cli.Cube;

/// <summary>
/// Who owns a file, and who this process runs as, on Linux: .NET's file API gives a file's mode but
/// not its owner. <c>statx</c> is used because its result has the same layout on every Linux
/// architecture, unlike <c>struct stat</c>.
/// </summary>
internal static partial class UnixFileOwner
{
    private const int AtFdCwd = -100;
    private const int AtSymlinkNoFollow = 0x100;
    private const uint StatxUid = 0x8;
    private const int StatxBytes = 256;
    private const int StatxUidOffset = 20;

    /// <summary>Gets whether owners can be read here (Linux); elsewhere only modes are checked.</summary>
    public static bool IsSupported => OperatingSystem.IsLinux();

    /// <summary>Gets the effective user id of this process.</summary>
    public static uint EffectiveUserId => NativeMethods.geteuid();

    /// <summary>Gets the user id that owns a path (a symbolic link itself, not what it points to).</summary>
    /// <exception cref="IOException">The path cannot be examined; the message has the system's reason.</exception>
    public static uint OwnerOf(string path)
    {
        var buffer = new byte[StatxBytes];
        if (NativeMethods.statx(AtFdCwd, path, AtSymlinkNoFollow, StatxUid, buffer) != 0)
        {
            throw new IOException($"cannot examine '{path}': {Marshal.GetLastPInvokeErrorMessage()}");
        }

        return MemoryMarshal.Read<uint>(buffer.AsSpan(StatxUidOffset));
    }

    private static class NativeMethods
    {
        [DllImport("libc", SetLastError = true)]
        [DefaultDllImportSearchPaths(DllImportSearchPath.SafeDirectories)]
        public static extern int statx(int dirfd, [MarshalAs(UnmanagedType.LPUTF8Str)] string path, int flags, uint mask, [Out] byte[] buffer);

        [DllImport("libc")]
        [DefaultDllImportSearchPaths(DllImportSearchPath.SafeDirectories)]
        public static extern uint geteuid();
    }
}
