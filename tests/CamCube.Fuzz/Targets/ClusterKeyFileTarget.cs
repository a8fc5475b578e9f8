using CamCube.Transport.Udp;

namespace CamCube.Fuzz.Targets;

/// <summary>
/// The cluster key readers: the input is a key file's content (ClusterKey.FromFile, whose
/// documented rejection is InvalidDataException) and, as text, a key in hexadecimal
/// (ClusterKey.ParseHex, FormatException) and the CAMCUBE_CLUSTER_KEY variable (FromEnvironment, FormatException).
/// </summary>
public sealed class ClusterKeyFileTarget : IFuzzTarget
{
    private const string Variable = "CAMCUBE_FUZZ_CLUSTER_KEY";
    private readonly string _path = Path.Combine(Path.GetTempPath(), $"camcube-fuzz-{Environment.ProcessId}-cluster-key");

    /// <inheritdoc/>
    public string Name => "cluster-key";

    /// <inheritdoc/>
    public string Description => "cluster key files, hex text and the key variable (ClusterKey.FromFile, ParseHex, FromEnvironment)";

    /// <inheritdoc/>
    public void Run(byte[] input)
    {
        ArgumentNullException.ThrowIfNull(input);
        File.WriteAllBytes(_path, input);
        try
        {
            _ = ClusterKey.FromFile(_path);
        }
        catch (InvalidDataException)
        {
            // The file holds neither form; the message says so.
        }
        finally
        {
            File.Delete(_path);
        }

        var text = System.Text.Encoding.UTF8.GetString(input);
        try
        {
            _ = ClusterKey.ParseHex(text);
        }
        catch (FormatException)
        {
            // Not 64 hexadecimal characters.
        }

        if (text.Contains('\0', StringComparison.Ordinal))
        {
            return;
        }

        Environment.SetEnvironmentVariable(Variable, text);
        try
        {
            _ = ClusterKey.FromEnvironment(Variable);
        }
        catch (FormatException)
        {
            // Set, but not a key.
        }
        finally
        {
            Environment.SetEnvironmentVariable(Variable, null);
        }
    }
}
