namespace CamCube.Services.Cache.Tests;

/// <summary>
/// The kept cache fuzz seeds are what today's encoder writes. To regenerate them after a change to
/// the cache's message layout, run these tests with CAMCUBE_WRITE_FUZZ_SEEDS=1 and commit the files.
/// </summary>
public sealed class CacheFuzzSeedsTests
{
    [Fact]
    public void KeptSeedsEqualEncoderOutputWhenReplayed()
    {
        var folder = CorpusFolder();
        var write = Environment.GetEnvironmentVariable("CAMCUBE_WRITE_FUZZ_SEEDS") == "1";
        var stale = new List<string>();
        foreach (var (name, bytes) in CacheFuzzSeeds.All())
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

        Assert.Empty(stale);
    }

    private static string CorpusFolder()
    {
        for (var folder = new DirectoryInfo(AppContext.BaseDirectory); folder is not null; folder = folder.Parent)
        {
            if (File.Exists(Path.Combine(folder.FullName, "CamCube.sln")))
            {
                return Path.Combine(folder.FullName, "tests", "CamCube.Fuzz", "corpus", "cache");
            }
        }

        throw new InvalidOperationException("CamCube.sln not found above " + AppContext.BaseDirectory);
    }
}
