using CamCube.Services.KeyValue.Messages;
using CamCube.Testing;

namespace CamCube.Services.KeyValue.Tests;

/// <summary>Replication messages that break the format (found by the kv-messages fuzz target) are refused before they reach the disk, where they would fail the writes committed with them.</summary>
public sealed class MalformedReplicationTests
{
    private static readonly TorusShape s_shape = new(3, 3, 3);
    private static readonly Coordinate s_replica = new(1, 1, 1);
    private static readonly Coordinate s_primary = new(0, 0, 0);
    private static readonly Key s_kept = Key.FromString("kept");
    private static readonly Key s_broken = Key.FromString("version zero");

    [Fact]
    public async Task AcceptOfAWriteWithVersionZeroIsRefusedWithoutFailingTheWriteCommittedWithIt()
    {
        var store = StoreCube.Start(TestTransport.InMemory, s_shape);

        // Both accepts arrive in one turn of the replica's loop, so their writes would be committed together.
        var (kept, broken) = await store.Run(store[s_replica], async s =>
        {
            var good = s.OnAcceptAsync(new Accept { Key = KeyValueService.KeyBytes(s_kept), Ballot = 1, Version = 1, Value = [1] }, s_primary);
            var bad = s.OnAcceptAsync(new Accept { Key = KeyValueService.KeyBytes(s_broken), Ballot = 1, Version = 0, Value = [2] }, s_primary);
            return (await good, await bad);
        });

        Assert.True(kept.Ok);
        Assert.False(broken.Ok);
        Assert.Equal(1, store.DiskOf(s_replica).Read(s_kept)!.Version);
        Assert.Null(store.DiskOf(s_replica).Read(s_broken));
    }

    [Fact]
    public async Task TransferOfAValueWithVersionZeroIsNotKeptAndDoesNotFailTheValueCopiedWithIt()
    {
        var store = StoreCube.Start(TestTransport.InMemory, s_shape);
        var transfer = new Transfer
        {
            Reason = CopyReason.ReReplication,
            Values =
            [
                new CopiedValue { Key = KeyValueService.KeyBytes(s_kept), Version = 1, Value = [1] },
                new CopiedValue { Key = KeyValueService.KeyBytes(s_broken), Version = 0, Value = [2] },
            ],
        };

        var ack = await store.Run(store[s_replica], s => s.OnTransferAsync(transfer));

        Assert.Equal(1, ack.Kept);
        Assert.Equal(1, store.DiskOf(s_replica).Read(s_kept)!.Version);
        Assert.Null(store.DiskOf(s_replica).Read(s_broken));
    }

    [Fact]
    public async Task PurgeOfVersionZeroIsRefusedWithoutThrowing()
    {
        var store = StoreCube.Start(TestTransport.InMemory, s_shape);

        var purged = await store.Run(store[s_replica], s => s.OnPurgeAsync(new Purge { Key = KeyValueService.KeyBytes(s_kept), Ballot = 1, Version = 0 }));

        Assert.False(purged.Ok);
    }
}
