namespace CamCube.Fuzz.Tests;

/// <summary>
/// Every kept input of every fuzz target (tests/CamCube.Fuzz/corpus/&lt;target&gt;/: seeds, and each
/// crash, hang or allocation the fuzzer found, after its fix) runs through the target as an
/// ordinary test: the parser accepts it or rejects it the documented way, within the budget.
/// </summary>
[Collection(FuzzTargetGroup.Name)]
public class FuzzCorpusTests
{
    private static readonly TimeSpan s_hangTimeout = TimeSpan.FromSeconds(60);

    private static string CorpusFolder => Path.Combine(AppContext.BaseDirectory, "corpus");

    public static TheoryData<string, string> KeptInputs()
    {
        var data = new TheoryData<string, string>();
        foreach (var target in FuzzTargets.All)
        {
            var folder = Path.Combine(CorpusFolder, target.Name);
            if (!Directory.Exists(folder))
            {
                continue;
            }

            foreach (var file in Directory.GetFiles(folder).Order(StringComparer.Ordinal))
            {
                data.Add(target.Name, Path.GetFileName(file));
            }
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(KeptInputs))]
    public async Task ParserAcceptsOrRejectsAsDocumentedWhenReplayingAKeptInput(string target, string file)
    {
        var input = File.ReadAllBytes(Path.Combine(CorpusFolder, target, file));

        // On a thread of its own, so that a hang fails this test instead of stopping the run.
        var run = Task.Run(() => FuzzTargets.RunChecked(FuzzTargets.Find(target)!, input));
        var first = await Task.WhenAny(run, Task.Delay(s_hangTimeout, TimeProvider.System));

        Assert.True(first == run, $"{target}/{file} did not finish within {s_hangTimeout}.");
        await run;
    }

    [Fact]
    public void EveryTargetHasAKeptCorpusWhenTheTestsAreBuilt()
    {
        foreach (var target in FuzzTargets.All)
        {
            var folder = Path.Combine(CorpusFolder, target.Name);
            Assert.True(Directory.Exists(folder), $"no corpus folder for {target.Name}");
            Assert.True(Directory.GetFiles(folder).Length >= 5, $"{target.Name} keeps {Directory.GetFiles(folder).Length} inputs, fewer than 5");
        }
    }
}
