using System.Text;

namespace CamCube.Cli;

/// <summary>The standard streams a command uses, so tests can run commands in process.</summary>
/// <param name="In">Standard input.</param>
/// <param name="Out">Standard output.</param>
/// <param name="Error">Standard error.</param>
/// <param name="InBytes">Standard input as bytes, for commands that must see input that is not UTF-8 (null: use <paramref name="In"/>).</param>
/// <param name="OutBytes">Standard output as bytes, under <paramref name="Out"/>, for commands that print bytes that are not UTF-8 (null: use <paramref name="Out"/>).</param>
internal sealed record CliConsole(TextReader In, TextWriter Out, TextWriter Error, Stream? InBytes = null, Stream? OutBytes = null)
{
    /// <summary>Reads all of standard input as the bytes that came, even when they are not UTF-8.</summary>
    public byte[] ReadAllBytes()
    {
        if (InBytes is null)
        {
            return Encoding.UTF8.GetBytes(In.ReadToEnd());
        }

        using var bytes = new MemoryStream();
        InBytes.CopyTo(bytes);
        return bytes.ToArray();
    }

    /// <summary>Writes bytes to standard output as they are, after what <see cref="Out"/> holds, then a line break.</summary>
    public void WriteRawLine(ReadOnlySpan<byte> bytes)
    {
        if (OutBytes is null)
        {
            Out.WriteLine(Encoding.UTF8.GetString(bytes));
            return;
        }

        Out.Flush();
        OutBytes.Write(bytes);
        OutBytes.Write("\n"u8);
        OutBytes.Flush();
    }

    /// <summary>Reads standard input line by line, keeping the bytes of invalid UTF-8 as <see cref="RawArguments"/> does.</summary>
    public IEnumerable<string> ReadRawLines()
    {
        if (InBytes is null)
        {
            string? text;
            while ((text = In.ReadLine()) is not null)
            {
                yield return text;
            }

            yield break;
        }

        var buffer = new byte[1 << 16];
        var line = new MemoryStream();
        int read;
        while ((read = InBytes.Read(buffer)) > 0)
        {
            var start = 0;
            int newline;
            while ((newline = Array.IndexOf(buffer, (byte)'\n', start, read - start)) >= 0)
            {
                line.Write(buffer, start, newline - start);
                yield return RawLine(line);
                line.SetLength(0);
                start = newline + 1;
            }

            line.Write(buffer, start, read - start);
        }

        if (line.Length > 0)
        {
            yield return RawLine(line);
        }
    }

    private static string RawLine(MemoryStream line)
    {
        var bytes = line.GetBuffer().AsSpan(0, (int)line.Length);
        return RawArguments.Decode(bytes.EndsWith("\r"u8) ? bytes[..^1] : bytes);
    }
}
