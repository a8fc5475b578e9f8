using System.Globalization;

namespace CamCube.Integration.Tests;

/// <summary>
/// The store's front-ends while every node of the 27-process cube drops 5% of the frames it receives,
/// as a user tried it (`camcube cube faults all --drop 0.05`, then `camcube kv put|get|cas`): on the
/// reliable transport, the store's default, every call is answered, none with SERVER_ERROR, and a stale
/// cas is told EXISTS (with best effort a lost request or reply of a write cost the 5 s request timeout
/// and a SERVER_ERROR). The same calls run first without loss: on a cube just started, 27 processes
/// compile the same code on 2 cores and a call takes hundreds of milliseconds (docs/experiments.md, "A
/// fresh cube's first minute"), so a few losses in a row could outlast the 5 s request timeout.
/// </summary>
[Collection(SharedCube.Name)]
public sealed class KeyValueUnderLossTests(CubeFixture cube)
{
    private const int KeyCount = 20;
    private const int WarmUpKeyCount = 40;
    private static readonly Coordinate[] s_frontEnds = [new(0, 0, 0), new(1, 2, 2), new(2, 1, 0)];

    [Fact]
    public void EverySetGetsAndCasIsAnsweredAndAStaleCasIsToldExistsUnderFivePercentLoss()
    {
        var clients = s_frontEnds.Select(node => new MemcachedTextClient(cube.KeyValuePort(node))).ToArray();
        try
        {
            RunTheCalls(clients, "kvloss-warm", WarmUpKeyCount);
            cube.DropEverywhere("0.05");
            RunTheCalls(clients, "kvloss", KeyCount);
        }
        finally
        {
            cube.DropEverywhere("0");
            foreach (var client in clients)
            {
                client.Dispose();
            }
        }
    }

    /// <summary>Per key, through one front-end: a set, a gets, a cas with its unique, a stale cas, and a get through the next front-end.</summary>
    private static void RunTheCalls(MemcachedTextClient[] clients, string prefix, int keyCount)
    {
        for (var i = 0; i < keyCount; i++)
        {
            var key = string.Create(CultureInfo.InvariantCulture, $"{prefix}:{i}");
            var client = clients[i % clients.Length];
            Assert.Equal("STORED", client.Command($"set {key} 0 0 3", "one"));

            // VALUE <key> <flags> <bytes> <cas>
            var (header, data) = client.Get("gets", key)!.Value;
            Assert.Equal("one", data);
            var unique = header.Split(' ')[4];
            Assert.Equal("STORED", client.Command($"cas {key} 0 0 3 {unique}", "two"));
            Assert.Equal("EXISTS", client.Command($"cas {key} 0 0 5 {unique}", "three"));
            Assert.Equal("two", clients[(i + 1) % clients.Length].Get("get", key)?.Data);
        }
    }
}
