namespace CamCube.Fuzz;

/// <summary>Writes the binary targets' seeds, made with the product's own encoders (the text targets' seeds are written by hand; the cache's and the UDP transport's are kept by their own test projects).</summary>
public static class SeedWriter
{
    /// <summary>Writes every generated seed under <paramref name="folder"/>/&lt;target&gt;/.</summary>
    public static void Write(string folder)
    {
        foreach (var (target, name, bytes) in Targets.PacketHeaderTarget.Seeds().Concat(Targets.ReliablePacketTarget.Seeds()).Concat(Targets.KeyValueMessageTarget.Seeds()))
        {
            var directory = Path.Combine(folder, target);
            Directory.CreateDirectory(directory);
            File.WriteAllBytes(Path.Combine(directory, name), bytes);
        }
    }
}
