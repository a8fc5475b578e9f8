using System.Security.Cryptography;

namespace CamCube.Transport.Udp;

/// <summary>
/// The 32-byte secret every node of a cube shares. Each link direction's AEAD key is derived from
/// it (see README.md in this project). It is read from a file or an environment variable, never
/// from the command line, where other users of the host could see it.
/// </summary>
public sealed class ClusterKey
{
    /// <summary>The size of a cluster key in bytes.</summary>
    public const int SizeBytes = 32;

    /// <summary>The environment variable <see cref="FromEnvironment"/> reads unless told otherwise.</summary>
    public const string DefaultEnvironmentVariable = "CAMCUBE_CLUSTER_KEY";

    /// <summary>How to provide a key, for error messages here and in hosts.</summary>
    public const string HowToProvide =
        "Provide a cluster key in a file (32 raw bytes or 64 hex characters, for example made with " +
        "'openssl rand -hex 32 > cluster.key') or in the environment variable " + DefaultEnvironmentVariable +
        " (64 hex characters).";

    private readonly byte[] _bytes;

    private ClusterKey(byte[] bytes) => _bytes = bytes;

    /// <summary>Gets the key's bytes.</summary>
    internal ReadOnlySpan<byte> Bytes => _bytes;

    /// <summary>Creates a key from exactly 32 bytes (copied).</summary>
    /// <exception cref="ArgumentException">The span is not 32 bytes long.</exception>
    public static ClusterKey FromBytes(ReadOnlySpan<byte> bytes)
    {
        if (bytes.Length != SizeBytes)
        {
            throw new ArgumentException($"A cluster key is exactly {SizeBytes} bytes; got {bytes.Length}.", nameof(bytes));
        }

        return new ClusterKey(bytes.ToArray());
    }

    /// <summary>Creates a fresh random key from the operating system's cryptographic random source.</summary>
    public static ClusterKey CreateRandom() => new(RandomNumberGenerator.GetBytes(SizeBytes));

    /// <summary>Parses 64 hexadecimal characters (surrounding white space is ignored).</summary>
    /// <exception cref="FormatException">The text is not 64 hexadecimal characters.</exception>
    public static ClusterKey ParseHex(ReadOnlySpan<char> text)
    {
        if (!TryParseHex(text, out var key, out var problem))
        {
            throw new FormatException($"A cluster key in text is 64 hexadecimal characters: {problem}");
        }

        return key;
    }

    /// <summary>
    /// Reads a key file: exactly 32 raw bytes, or 64 hexadecimal characters with optional white
    /// space around them (a trailing newline is fine).
    /// </summary>
    /// <exception cref="FileNotFoundException">The file does not exist.</exception>
    /// <exception cref="InvalidDataException">The file holds neither form; the message says what it holds.</exception>
    public static ClusterKey FromFile(string path)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(path);
        if (!File.Exists(path))
        {
            throw new FileNotFoundException($"The cluster key file '{path}' does not exist. {HowToProvide}", path);
        }

        var content = File.ReadAllBytes(path);
        if (content.Length == SizeBytes && !LooksLikeHexText(content))
        {
            return new ClusterKey(content);
        }

        var text = System.Text.Encoding.ASCII.GetString(content);
        if (TryParseHex(text, out var key, out var problem))
        {
            return key;
        }

        throw new InvalidDataException(
            $"The cluster key file '{path}' holds {content.Length} bytes that are neither {SizeBytes} raw bytes nor 64 hexadecimal characters ({problem}). {HowToProvide}");
    }

    /// <summary>Reads a key from an environment variable holding 64 hexadecimal characters.</summary>
    /// <param name="variable">The variable's name; <see cref="DefaultEnvironmentVariable"/> by default.</param>
    /// <returns>The key, or null if the variable is not set or empty.</returns>
    /// <exception cref="FormatException">The variable is set but does not hold 64 hexadecimal characters.</exception>
    public static ClusterKey? FromEnvironment(string variable = DefaultEnvironmentVariable)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(variable);
        var value = Environment.GetEnvironmentVariable(variable);
        if (string.IsNullOrWhiteSpace(value))
        {
            return null;
        }

        if (TryParseHex(value, out var key, out var problem))
        {
            return key;
        }

        throw new FormatException($"The environment variable {variable} does not hold a cluster key: {problem} {HowToProvide}");
    }

    /// <summary>Gets the key as 64 lower-case hexadecimal characters, for writing a key file.</summary>
    public string ToHexString() => Convert.ToHexStringLower(_bytes);

    /// <summary>Returns a description that never shows the key.</summary>
    public override string ToString() => "ClusterKey(32 bytes, hidden)";

    private static bool LooksLikeHexText(byte[] content)
    {
        // 32 raw bytes that happen to be all hex digits are indistinguishable from 32 hex
        // characters; those are rejected as too short below, which says what is wrong.
        foreach (var b in content)
        {
            if (!char.IsAsciiHexDigit((char)b))
            {
                return false;
            }
        }

        return true;
    }

    private static bool TryParseHex(ReadOnlySpan<char> text, out ClusterKey key, out string problem)
    {
        key = null!;
        text = text.Trim();
        if (text.Length != SizeBytes * 2)
        {
            problem = $"found {text.Length} characters after trimming white space, expected {SizeBytes * 2}.";
            return false;
        }

        for (var i = 0; i < text.Length; i++)
        {
            if (!char.IsAsciiHexDigit(text[i]))
            {
                problem = $"character {i + 1} is not a hexadecimal digit.";
                return false;
            }
        }

        key = new ClusterKey(Convert.FromHexString(text));
        problem = string.Empty;
        return true;
    }
}
