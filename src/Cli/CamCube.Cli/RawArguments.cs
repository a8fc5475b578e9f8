using System.Buffers;
using System.Text;

namespace CamCube.Cli;

/// <summary>
/// Command-line arguments that are not valid UTF-8. .NET decodes arguments with replacement
/// characters, so two different keys would hash alike; the raw bytes (from /proc/self/cmdline on
/// Linux) are kept instead in the string, each byte of an invalid sequence as a lone surrogate
/// U+DC80..U+DCFF (as Python's surrogateescape does), and <see cref="GetBytes"/> gives them back.
/// A genuine argument never holds a lone surrogate, so the two cannot be confused.
/// </summary>
internal static class RawArguments
{
    private const int EscapeBase = 0xDC00;

    /// <summary>Gets the arguments with their raw bytes where .NET replaced invalid UTF-8 (unchanged otherwise).</summary>
    /// <param name="args">The arguments .NET gave <c>Main</c>.</param>
    /// <param name="readCommandLine">Reads the process's command line, NUL-terminated arguments; null when unknown.</param>
    public static string[] Recover(string[] args, Func<byte[]?> readCommandLine)
    {
        ArgumentNullException.ThrowIfNull(args);
        ArgumentNullException.ThrowIfNull(readCommandLine);
        if (!args.Any(a => a.Contains('\uFFFD', StringComparison.Ordinal)) || readCommandLine() is not { } commandLine)
        {
            return args;
        }

        var parts = new List<byte[]>();
        var start = 0;
        for (var i = 0; i < commandLine.Length; i++)
        {
            if (commandLine[i] == 0)
            {
                parts.Add(commandLine[start..i]);
                start = i + 1;
            }
        }

        if (parts.Count < args.Length)
        {
            return args;
        }

        // The arguments are the command line's last ones (before them: dotnet and the dll, or the app host).
        var raw = parts.Skip(parts.Count - args.Length).ToArray();
        var recovered = new string[args.Length];
        for (var i = 0; i < args.Length; i++)
        {
            if (Encoding.UTF8.GetString(raw[i]) != args[i])
            {
                return args;
            }

            recovered[i] = Decode(raw[i]);
        }

        return recovered;
    }

    /// <summary>Reads /proc/self/cmdline, or null where there is none.</summary>
    public static byte[]? ReadProcCommandLine()
    {
        try
        {
            return OperatingSystem.IsLinux() ? File.ReadAllBytes("/proc/self/cmdline") : null;
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return null;
        }
    }

    /// <summary>Decodes UTF-8, keeping each byte of an invalid sequence as a lone surrogate.</summary>
    public static string Decode(ReadOnlySpan<byte> bytes)
    {
        var text = new StringBuilder(bytes.Length);
        while (!bytes.IsEmpty)
        {
            if (Rune.DecodeFromUtf8(bytes, out var rune, out var consumed) == OperationStatus.Done)
            {
                text.Append(rune.ToString());
                bytes = bytes[consumed..];
            }
            else
            {
                text.Append((char)(EscapeBase + bytes[0]));
                bytes = bytes[1..];
            }
        }

        return text.ToString();
    }

    /// <summary>The bytes an argument stands for: UTF-8, with escaped bytes given back as they came.</summary>
    public static byte[] GetBytes(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        var bytes = new ArrayBufferWriter<byte>(text.Length);
        Span<byte> utf8 = stackalloc byte[4];
        for (var i = 0; i < text.Length; i++)
        {
            var c = text[i];
            if (char.IsHighSurrogate(c) && i + 1 < text.Length && char.IsLowSurrogate(text[i + 1]))
            {
                bytes.Write(utf8[..new Rune(c, text[++i]).EncodeToUtf8(utf8)]);
            }
            else if (c is >= (char)(EscapeBase + 0x80) and <= (char)(EscapeBase + 0xFF))
            {
                bytes.Write([(byte)(c - EscapeBase)]);
            }
            else
            {
                var rune = Rune.IsValid(c) ? new Rune(c) : Rune.ReplacementChar;
                bytes.Write(utf8[..rune.EncodeToUtf8(utf8)]);
            }
        }

        return bytes.WrittenSpan.ToArray();
    }

    /// <summary>An argument fit to print: escaped bytes shown as U+FFFD.</summary>
    public static string Printable(string text) => Encoding.UTF8.GetString(GetBytes(text));
}
