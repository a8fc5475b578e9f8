using CamCube.Services.KeyValue.Storage;
using CamCube.Testing;
using static CamCube.Services.KeyValue.Tests.KeyValueServiceTests;

namespace CamCube.Services.KeyValue.Tests;

/// <summary>
/// The store's reusable sets (<see cref="IReusableSets"/>), the front-end's set path: an unconditional
/// put with no task of its own, whose outcome hears how it ended.
/// </summary>
public sealed class ReusableSetTests
{
    private static readonly TorusShape s_shape = new(3, 3, 3);
    private static readonly Key s_key = Key.FromString("reusable set");
    private static readonly Coordinate s_client = FailoverTests.ClientOutside(KeySpace.For(s_shape).GetServersForKey(s_key, 3));

    [Fact]
    public async Task OneReusableSetWritesValueAfterValueOnEveryReplicaWithANewVersionEachTime()
    {
        var store = StoreCube.Start(TestTransport.InMemory, s_shape);
        var outcome = new RecordedOutcome();
        var set = new StoreSet(outcome);

        set.Prepare(s_key, Bytes("first"));
        var first = await store.Run(outcome.Next(() => ((IReusableSets)store[s_client]).TryStartSet(set)));
        set.Prepare(s_key, Bytes("second"));
        var second = await store.Run(outcome.Next(() => ((IReusableSets)store[s_client]).TryStartSet(set)));

        Assert.Equal(WriteStatus.Written, first.Status);
        Assert.Equal(WriteStatus.Written, second.Status);
        Assert.True(second.Version > first.Version, $"versions {first.Version} then {second.Version}");
        foreach (var server in KeySpace.For(s_shape).GetServersForKey(s_key, 3))
        {
            var held = store.DiskOf(server).Read(s_key)!;
            Assert.Equal(second.Version, held.Version);
            Assert.Equal("second", Text(held.Value));
        }

        Assert.Equal(2, outcome.Told);
    }

    [Fact]
    public void AReusableSetOfAStoreOnNoNodeDoesNotStartAndItsOutcomeHearsNothing()
    {
        var outcome = new RecordedOutcome();
        var set = new StoreSet(outcome);
        set.Prepare(s_key, Bytes("never"));

        Assert.False(((IReusableSets)new KeyValueService(new MemoryKeyValueStorage())).TryStartSet(set));
        Assert.Equal(0, outcome.Told);
    }

    /// <summary>Hears each set's outcome, counting how often it was told.</summary>
    private sealed class RecordedOutcome : ISetOutcome
    {
        private TaskCompletionSource<WriteOutcome> _next = new();

        public int Told { get; private set; }

        /// <summary>Starts the next set with <paramref name="start"/>, which must start it, and gives what it will end with.</summary>
        public Task<WriteOutcome> Next(Func<bool> start)
        {
            _next = new TaskCompletionSource<WriteOutcome>();
            Assert.True(start(), "the set did not start");
            return _next.Task;
        }

        public void Written(WriteOutcome outcome)
        {
            Told++;
            _next.SetResult(outcome);
        }

        public void Failed(Exception error)
        {
            Told++;
            _next.SetException(error);
        }
    }
}
