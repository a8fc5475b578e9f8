using CamCube.Services.Cache.Tests;

namespace CamCube.KeyValueVsEtcd.Tests;

/// <summary>The driver's memcached client (the store's front-end speaks the same protocol) against a real memcached 1.6.</summary>
public sealed class MemcachedBenchClientTests : IClassFixture<MemcachedProcess>
{
    private readonly MemcachedProcess _memcached;

    public MemcachedBenchClientTests(MemcachedProcess memcached) => _memcached = memcached;

    [Fact]
    public async Task GetReturnsTheCasUniqueAndCasRefusesAStaleOneWhenAKeyWasSet()
    {
        await using var client = await MemcachedBenchClient.ConnectAsync(_memcached.EndPoint, CancellationToken.None);

        var seen = await ClientRoundTrip.RunAsync(client, "bench-cas", 4096);

        Assert.True(seen.Version > 0, $"cas unique {seen.Version}");
        Assert.NotEqual(seen.Version, seen.After);
        Assert.Equal(seen with { Version = 0, After = 0 }, new ClientRoundTrip(0, 4096, Swapped: true, StaleSwapped: false, 0, (0, 0)));
    }

    [Fact]
    public async Task GetReadsTheWholeValueWhenItIsLargerThanTheReceiveBuffer()
    {
        await using var client = await MemcachedBenchClient.ConnectAsync(_memcached.EndPoint, CancellationToken.None);
        var value = ComparisonRun.Value(200_000);

        await client.PutAsync("bench-large", value, CancellationToken.None);
        var (_, length) = await client.GetAsync("bench-large", CancellationToken.None);
        var (_, again) = await client.GetAsync("bench-large", CancellationToken.None);

        Assert.Equal(200_000, length);
        Assert.Equal(200_000, again);
    }
}
