using System.Globalization;

namespace CamCube.Integration.Tests;

/// <summary>
/// Issue 14's defects 1 and 3, replayed on the 27-process cube as a user found them: hot keys with
/// copies on many front-ends, 5% loss on every node, writes acknowledged under the loss; every set
/// is STORED, and once the loss is gone every front-end reads the value last acknowledged.
/// </summary>
[Collection(SharedCube.Name)]
public sealed class CacheUnderLossTests(CubeFixture cube)
{
    private const int KeyCount = 20;

    [Fact]
    public void EveryFrontEndReadsTheAcknowledgedValueAfterWritesUnderFivePercentLoss()
    {
        var keys = Enumerable.Range(0, KeyCount).Select(i => string.Create(CultureInfo.InvariantCulture, $"loss:{i}")).ToArray();
        var clients = Enumerable.Range(0, (int)CubeFixture.Shape.ServerCount).Select(i => new MemcachedTextClient(cube.MemcachedPort(CubeFixture.Shape.CoordinateAt(i)))).ToArray();
        try
        {
            foreach (var key in keys)
            {
                Assert.Equal("STORED", clients[0].Command($"set {key} 0 0 4", "init"));
            }

            // Every front-end reads every key: secondaries take copies of them.
            AssertEveryFrontEndReads(clients, keys, "init");

            cube.DropEverywhere("0.05");
            var replies = new List<string>();
            foreach (var key in keys)
            {
                replies.Add(clients[1].Command($"set {key} 0 0 2", "r0"));
                replies.Add(clients[14].Command($"set {key} 0 0 2", "r1"));
            }

            Assert.All(replies, reply => Assert.Equal("STORED", reply));
            cube.DropEverywhere("0");

            AssertEveryFrontEndReads(clients, keys, "r1");
            foreach (var key in keys)
            {
                Assert.Equal("DELETED", clients[26].Command($"delete {key}"));
            }

            foreach (var client in clients)
            {
                foreach (var key in keys)
                {
                    Assert.Null(client.Get("get", key));
                }
            }
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

    [Fact]
    public void EveryFrontEndReadsEachNewValueRightAfterItsSetIsAcknowledged()
    {
        // Defect 2: set through the front-end of the key's root, then get through every front-end, 150 times.
        const string key = "hs1";
        var clients = Enumerable.Range(0, (int)CubeFixture.Shape.ServerCount).Select(i => new MemcachedTextClient(cube.MemcachedPort(CubeFixture.Shape.CoordinateAt(i)))).ToArray();
        try
        {
            var rootIndex = (int)CubeFixture.Shape.IndexOf(KeySpace.For(CubeFixture.Shape).GetServersForKey(Key.Hash("hs1"u8), 1)[0]);
            var stale = new List<string>();
            for (var round = 0; round < 150; round++)
            {
                var value = string.Create(CultureInfo.InvariantCulture, $"v{round}");
                Assert.Equal("STORED", clients[rootIndex].Command($"set {key} 0 0 {value.Length}", value));
                for (var i = 0; i < clients.Length; i++)
                {
                    var read = clients[i].Get("get", key)?.Data;
                    if (read != value)
                    {
                        stale.Add(string.Create(CultureInfo.InvariantCulture, $"round {round}: front-end {i} read '{read ?? "(miss)"}'"));
                    }
                }
            }

            Assert.True(stale.Count == 0, string.Join("\n", stale.Take(20)));
        }
        finally
        {
            foreach (var client in clients)
            {
                client.Dispose();
            }
        }
    }

    private static void AssertEveryFrontEndReads(MemcachedTextClient[] clients, string[] keys, string expected)
    {
        for (var i = 0; i < clients.Length; i++)
        {
            foreach (var key in keys)
            {
                var value = clients[i].Get("get", key);
                Assert.True(value?.Data == expected, $"front-end {i} read {key} as '{value?.Data ?? "(miss)"}', not '{expected}'");
            }
        }
    }
}
