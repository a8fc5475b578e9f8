using CamCube.Messaging;
using CamCube.Testing;
using Xunit.Abstractions;
using static CamCube.Services.KeyValue.Tests.KeyValueServiceTests;

namespace CamCube.Services.KeyValue.Tests;

/// <summary>
/// What one get costs in allocations, the whole in-process cube counted (the asking node, the hops,
/// the primary and the answer), for a key whose primary is another server and holds a read lease.
/// </summary>
[Collection(QuietProcessGroup.Name)]
public sealed class GetAllocationTests(ITestOutputHelper output)
{
    /// <summary>
    /// The budget of one get through <see cref="IKeyValueStore.GetAsync"/>, in bytes. Measured: 1,176
    /// with the get asked as one typed request with no task and no timer of its own, its reply read in
    /// place, and the primary answering in the upcall that brought it (the caller's task, the copy of the
    /// value and the primary's decoded request and reply are what is left); 2,600 before that, with a
    /// task and a timer per request; 6,720 with <c>ReadLease = 0</c> (a check round per read), and about
    /// 7,300 before leases.
    /// </summary>
    private const long BytesPerGetMax = 1_300;

    private const int Gets = 400;

    private static readonly TorusShape s_shape = new(3, 3, 3);
    private static readonly Key s_key = Key.FromString("allocation");
    private static readonly Coordinate s_client = FailoverTests.ClientOutside(KeySpace.For(s_shape).GetServersForKey(s_key, 3));

    [Theory]
    [InlineData(MessageDelivery.BestEffort)]
    [InlineData(MessageDelivery.Reliable)]
    public async Task AGetUnderTheLeaseAllocatesWithinItsBudgetWhenThePrimaryIsAnotherServer(MessageDelivery delivery)
    {
        var store = StoreCube.Start(TestTransport.InMemory, s_shape, KeyValueServiceOptions.Default with { Delivery = delivery });
        await store.Run(store[s_client].PutAsync(s_key, Bytes("value")));
        await GetsAsync(store, Gets);

        var least = long.MaxValue;
        for (var run = 0; run < 3; run++)
        {
            var before = GC.GetTotalAllocatedBytes(precise: true);
            await GetsAsync(store, Gets);
            least = Math.Min(least, (GC.GetTotalAllocatedBytes(precise: true) - before) / Gets);
        }

        output.WriteLine($"{least} bytes per get ({delivery})");
        Assert.True(least <= BytesPerGetMax, $"A get allocated {least} bytes; the budget is {BytesPerGetMax}.");
    }

    private static async Task GetsAsync(StoreCube store, int count)
    {
        for (var i = 0; i < count; i++)
        {
            var got = await store.Run(store[s_client].GetAsync(s_key));
            Assert.Equal(5, got!.Value.Length);
        }
    }
}
