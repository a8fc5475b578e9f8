using System.Text;
using CamCube.Testing;

namespace CamCube.Services.KeyValue.Tests;

public sealed class KeyValueServiceTests
{
    private static readonly TorusShape s_shape = new(3, 3, 3);
    private static readonly Coordinate s_client = new(0, 0, 0);
    private static readonly Key s_key = Key.FromString("greeting");

    public static TheoryData<TestTransport> Transports => [TestTransport.InMemory, TestTransport.Simulator];

    [Theory]
    [MemberData(nameof(Transports))]
    public async Task GetReturnsThePutValueAndVersionWhenReadThroughAnotherServer(TestTransport transport)
    {
        var store = StoreCube.Start(transport, s_shape);
        var put = await store.Run(store[s_client].PutAsync(s_key, Bytes("hello")));
        Assert.Equal(WriteStatus.Written, put.Status);
        Assert.True(put.Version > 0);

        var got = await store.Run(store[new Coordinate(2, 1, 0)].GetAsync(s_key));
        Assert.NotNull(got);
        Assert.Equal(put.Version, got.Version);
        Assert.Equal("hello", Text(got.Value));
    }

    [Theory]
    [MemberData(nameof(Transports))]
    public async Task PutIsOnEveryReplicaWhenItIsAcknowledged(TestTransport transport)
    {
        var store = StoreCube.Start(transport, s_shape);
        var put = await store.Run(store[s_client].PutAsync(s_key, Bytes("v1")));

        var servers = KeySpace.For(s_shape).GetServersForKey(s_key, 3);
        Assert.All(servers, server => Assert.Equal(put.Version, store.DiskOf(server).Read(s_key)!.Version));
        Assert.Equal(3, store.Cube.LiveNodes.Count(node => store.DiskOf(node.Self).Read(s_key) is not null));
    }

    [Fact]
    public async Task VersionsIncreaseWithEveryWriteWhenOnePrimaryServes()
    {
        var store = StoreCube.Start(TestTransport.InMemory, s_shape);
        var first = await store.Run(store[s_client].PutAsync(s_key, Bytes("a")));
        var second = await store.Run(store[s_client].PutAsync(s_key, Bytes("b")));
        var deleted = await store.Run(store[s_client].DeleteAsync(s_key));
        var third = await store.Run(store[s_client].PutAsync(s_key, Bytes("c")));
        Assert.Equal(first.Version + 1, second.Version);
        Assert.Equal(second.Version + 1, deleted.Version);
        Assert.Equal(deleted.Version + 1, third.Version);
    }

    [Fact]
    public async Task CompareAndSwapWritesOnlyWhenTheVersionMatches()
    {
        var store = StoreCube.Start(TestTransport.InMemory, s_shape);
        var kv = store[s_client];
        var first = await store.Run(kv.PutAsync(s_key, Bytes("a")));

        var swapped = await store.Run(kv.PutAsync(s_key, Bytes("b"), WriteCondition.IfVersion(first.Version)));
        var stale = await store.Run(kv.PutAsync(s_key, Bytes("c"), WriteCondition.IfVersion(first.Version)));

        Assert.Equal(new WriteOutcome(WriteStatus.Written, first.Version + 1), swapped);
        Assert.Equal(new WriteOutcome(WriteStatus.ConditionFailed, swapped.Version), stale);
        Assert.Equal("b", Text((await store.Run(kv.GetAsync(s_key)))!.Value));
    }

    [Fact]
    public async Task ConditionsAreDecidedAtThePrimaryWhenTheKeyIsAbsentOrPresent()
    {
        var store = StoreCube.Start(TestTransport.InMemory, s_shape);
        var kv = store[s_client];

        Assert.Equal(new WriteOutcome(WriteStatus.NotFound, 0), await store.Run(kv.PutAsync(s_key, Bytes("x"), WriteCondition.IfPresent)));
        Assert.Equal(new WriteOutcome(WriteStatus.NotFound, 0), await store.Run(kv.PutAsync(s_key, Bytes("x"), WriteCondition.IfVersion(5))));
        var added = await store.Run(kv.PutAsync(s_key, Bytes("added"), WriteCondition.IfAbsent));
        Assert.Equal(WriteStatus.Written, added.Status);
        Assert.Equal(new WriteOutcome(WriteStatus.ConditionFailed, added.Version), await store.Run(kv.PutAsync(s_key, Bytes("again"), WriteCondition.IfAbsent)));
        var replaced = await store.Run(kv.PutAsync(s_key, Bytes("replaced"), WriteCondition.IfPresent));
        Assert.Equal(new WriteOutcome(WriteStatus.Written, added.Version + 1), replaced);
        Assert.Equal("replaced", Text((await store.Run(kv.GetAsync(s_key)))!.Value));
    }

    [Fact]
    public async Task DeleteLeavesNoValueAndIsNotFoundTheSecondTime()
    {
        var store = StoreCube.Start(TestTransport.InMemory, s_shape);
        var kv = store[s_client];
        var put = await store.Run(kv.PutAsync(s_key, Bytes("short-lived")));

        Assert.Equal(new WriteOutcome(WriteStatus.ConditionFailed, put.Version), await store.Run(kv.DeleteAsync(s_key, WriteCondition.IfVersion(put.Version + 7))));
        Assert.Equal(new WriteOutcome(WriteStatus.Written, put.Version + 1), await store.Run(kv.DeleteAsync(s_key, WriteCondition.IfVersion(put.Version))));
        Assert.Null(await store.Run(kv.GetAsync(s_key)));
        Assert.Equal(new WriteOutcome(WriteStatus.NotFound, 0), await store.Run(kv.DeleteAsync(s_key)));
        Assert.Equal(WriteStatus.Written, (await store.Run(kv.PutAsync(s_key, Bytes("back"), WriteCondition.IfAbsent))).Status);
    }

    [Fact]
    public async Task GetReturnsNullWhenTheKeyWasNeverWritten()
    {
        var store = StoreCube.Start(TestTransport.InMemory, s_shape);
        Assert.Null(await store.Run(store[s_client].GetAsync(Key.FromString("nobody wrote me"))));
    }

    [Fact]
    public void PutThrowsArgumentExceptionWhenTheValueIsLargerThanOnePacket()
    {
        var store = StoreCube.Start(TestTransport.InMemory, s_shape);
        var kv = store[s_client];
        var error = Assert.Throws<ArgumentException>(() => { _ = kv.PutAsync(s_key, new byte[kv.ValueBytesMax + 1]); });
        Assert.Contains($"at most {kv.ValueBytesMax} bytes", error.Message, StringComparison.Ordinal);
        Assert.Equal(8 * 1024, kv.ValueBytesMax);
    }

    [Fact]
    public async Task LargestValueIsStoredWhole()
    {
        var store = StoreCube.Start(TestTransport.Simulator, s_shape);
        var kv = store[s_client];
        var value = Enumerable.Range(0, kv.ValueBytesMax).Select(i => (byte)i).ToArray();
        await store.Run(kv.PutAsync(s_key, value));
        Assert.Equal(value, (await store.Run(kv.GetAsync(s_key)))!.Value.ToArray());
    }

    [Fact]
    public async Task CallFailsWithUnavailableNamingTheServerAndWhyWhenTheServerReachesNoMajority()
    {
        var store = StoreCube.Start(TestTransport.InMemory, new TorusShape(3, 1, 1), new KeyValueServiceOptions { RequestTimeout = TimeSpan.FromSeconds(1) });
        store.Cube.Kill(new Coordinate(1, 0, 0));
        store.Cube.Kill(new Coordinate(2, 0, 0));
        Assert.True(store.Cube.RunUntil(store.Cube.ViewsConverged, TimeSpan.FromSeconds(5)));

        var error = await Assert.ThrowsAsync<KeyValueStoreException>(() => store.Run(store[new Coordinate(0, 0, 0)].PutAsync(s_key, Bytes("lonely"))));
        Assert.Equal(KeyValueFailure.Unavailable, error.Reason);
        Assert.Contains("the primary answered Unavailable: (0,0,0) reaches no majority of the servers", error.Message, StringComparison.Ordinal);
    }

    internal static byte[] Bytes(string text) => Encoding.UTF8.GetBytes(text);

    internal static string Text(ReadOnlyMemory<byte> bytes) => Encoding.UTF8.GetString(bytes.Span);
}
