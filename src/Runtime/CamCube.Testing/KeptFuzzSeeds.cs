namespace CamCube.Testing;

/// <summary>
/// The fuzz driver's kept seeds (tests/CamCube.Fuzz/corpus/&lt;target&gt;/) that a component's own tests
/// make with its internal encoders, so the driver needs no access to them. Seeds with records use the
/// driver's layout: a control byte, a 2-byte big-endian length and the body.
/// </summary>
public static class KeptFuzzSeeds
{
    /// <summary>The environment variable that, set to 1, makes <see cref="Stale"/> rewrite the kept seeds instead.</summary>
    public const string WriteVariable = "CAMCUBE_WRITE_FUZZ_SEEDS";

    /// <summary>Joins records into one input in the driver's layout.</summary>
    /// <param name="records">Each record's control byte and body.</param>
    /// <returns>The input.</returns>
    public static byte[] Join(params (byte Control, byte[] Body)[] records)
    {
        ArgumentNullException.ThrowIfNull(records);
        return [.. records.SelectMany(r => new[] { r.Control, (byte)(r.Body.Length >> 8), (byte)r.Body.Length }.Concat(r.Body))];
    }

    /// <summary>
    /// The names of <paramref name="seeds"/> whose kept file under the repository's
    /// tests/CamCube.Fuzz/corpus/<paramref name="target"/>/ is missing or differs; with
    /// <see cref="WriteVariable"/> set to 1 it writes every seed there and returns none.
    /// </summary>
    /// <param name="target">The fuzz target's name (its corpus folder).</param>
    /// <param name="seeds">The seeds as today's encoder makes them, by file name.</param>
    /// <returns>The stale seeds' names.</returns>
    public static IReadOnlyList<string> Stale(string target, IEnumerable<(string Name, byte[] Bytes)> seeds)
    {
        ArgumentNullException.ThrowIfNull(seeds);
        var root = new DirectoryInfo(AppContext.BaseDirectory);
        while (!File.Exists(Path.Combine(root.FullName, "CamCube.sln")))
        {
            root = root.Parent ?? throw new InvalidOperationException("CamCube.sln not found above " + AppContext.BaseDirectory);
        }

        var folder = Path.Combine(root.FullName, "tests", "CamCube.Fuzz", "corpus", target);
        var write = Environment.GetEnvironmentVariable(WriteVariable) == "1";
        var stale = new List<string>();
        foreach (var (name, bytes) in seeds)
        {
            var path = Path.Combine(folder, name);
            if (write)
            {
                File.WriteAllBytes(path, bytes);
            }
            else if (!File.Exists(path) || !File.ReadAllBytes(path).AsSpan().SequenceEqual(bytes))
            {
                stale.Add(name);
            }
        }

        return stale;
    }
}
