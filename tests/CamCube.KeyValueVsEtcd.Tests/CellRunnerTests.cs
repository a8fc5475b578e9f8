namespace CamCube.KeyValueVsEtcd.Tests;

/// <summary>The driver's bookkeeping, on a fake in-process store (not a result).</summary>
public sealed class CellRunnerTests
{
    private static readonly BenchKeys s_keys = new("test", PerWorker: 4);
    private static readonly TimeSpan s_longerThanAnyTest = TimeSpan.FromMinutes(10);

    [Theory]
    [InlineData("Put", 1)]
    [InlineData("Get", 1)]
    [InlineData("Cas", 2)]
    public async Task CountsExactlyTheOperationsMaxWhenTheCountBoundsTheCell(string operationName, int callsPerOperation)
    {
        var operation = Enum.Parse<BenchOperation>(operationName);
        var store = new InMemoryKeyValueStore();
        await using var target = new KeyValueStoreTarget("fake", [store], "none");
        var value = ComparisonRun.Value(16);
        await CellRunner.PreloadAsync(target, s_keys, workers: 3, value, CancellationToken.None);
        var callsBefore = store.Calls;

        var result = await CellRunner.RunAsync(target, new CellSpec(operation, 16, 3, 100, s_longerThanAnyTest), s_keys, value, CancellationToken.None);

        Assert.Equal(100, result.Operations);
        Assert.Equal(0, result.Errors);
        Assert.Equal(100, result.Latency.Count);
        Assert.Null(result.FirstError);
        Assert.Equal(100 * callsPerOperation, store.Calls - callsBefore);
    }

    [Fact]
    public async Task PreloadWritesEveryKeyOfEveryWorkerOnceWhenRun()
    {
        var store = new InMemoryKeyValueStore();
        await using var target = new KeyValueStoreTarget("fake", [store], "none");

        var result = await CellRunner.PreloadAsync(target, s_keys, workers: 5, ComparisonRun.Value(16), CancellationToken.None);

        Assert.Equal(20, result.Operations);
        Assert.Equal(20, store.Calls);
        for (var w = 0; w < 5; w++)
        {
            for (var k = 0; k < 4; k++)
            {
                Assert.Equal(1, (await store.GetAsync(Key.FromString(s_keys.Key(16, w, k))))?.Version);
            }
        }
    }

    [Fact]
    public async Task GetCountsAnErrorPerOperationWhenTheKeysWereNeverWritten()
    {
        await using var target = new KeyValueStoreTarget("fake", [new InMemoryKeyValueStore()], "none");

        var result = await CellRunner.RunAsync(target, new CellSpec(BenchOperation.Get, 16, 1, 10, s_longerThanAnyTest), s_keys, ComparisonRun.Value(16), CancellationToken.None);

        Assert.Equal(0, result.Operations);
        Assert.Equal(10, result.Errors);
        Assert.Equal($"get {s_keys.Key(16, 0, 0)}: version 0, 0 bytes (expected 16)", result.FirstError);
    }

    [Fact]
    public async Task CasCountsARefusedWriteAsAnErrorWhenTheStoreRefusesIt()
    {
        var store = new InMemoryKeyValueStore();
        await using var target = new KeyValueStoreTarget("fake", [store], "none");
        var value = ComparisonRun.Value(16);
        await CellRunner.PreloadAsync(target, s_keys, workers: 1, value, CancellationToken.None);
        store.RefuseConditionalWrites = true;

        var result = await CellRunner.RunAsync(target, new CellSpec(BenchOperation.Cas, 16, 1, 10, s_longerThanAnyTest), s_keys, value, CancellationToken.None);

        Assert.Equal(0, result.Operations);
        Assert.Equal(10, result.Errors);
        Assert.Equal($"cas {s_keys.Key(16, 0, 0)}: refused at version 1, which no other worker changes", result.FirstError);
    }

    [Fact]
    public async Task AWorkerStopsAfterTheConsecutiveErrorsMaxWhenEveryOperationFails()
    {
        await using var target = new KeyValueStoreTarget("fake", [new InMemoryKeyValueStore()], "none");

        var result = await CellRunner.RunAsync(target, new CellSpec(BenchOperation.Get, 16, 2, 1000, s_longerThanAnyTest), s_keys, ComparisonRun.Value(16), CancellationToken.None);

        Assert.Equal(2 * WorkerTally.ConsecutiveErrorsMax, result.Errors);
    }
}
