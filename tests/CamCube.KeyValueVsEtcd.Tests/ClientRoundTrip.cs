namespace CamCube.KeyValueVsEtcd.Tests;

/// <summary>What one client saw in a put, get, CAS on the version read, CAS on the same (now stale) version, and get again.</summary>
/// <param name="Version">The version the first get returned.</param>
/// <param name="Length">The length of the value the first get returned.</param>
/// <param name="Swapped">Whether the first CAS happened.</param>
/// <param name="StaleSwapped">Whether the second CAS (on the stale version) happened.</param>
/// <param name="After">The version the last get returned.</param>
/// <param name="Missing">What a get of a key never written returned.</param>
internal sealed record ClientRoundTrip(long Version, int Length, bool Swapped, bool StaleSwapped, long After, (long, int) Missing)
{
    /// <summary>Runs the round trip on <paramref name="key"/> with a value of <paramref name="valueBytes"/>.</summary>
    public static async Task<ClientRoundTrip> RunAsync(IBenchClient client, string key, int valueBytes)
    {
        var value = ComparisonRun.Value(valueBytes);
        await client.PutAsync(key, value, CancellationToken.None);
        var (version, length) = await client.GetAsync(key, CancellationToken.None);
        var swapped = await client.CompareAndSwapAsync(key, version, value, CancellationToken.None);
        var stale = await client.CompareAndSwapAsync(key, version, value, CancellationToken.None);
        var (after, _) = await client.GetAsync(key, CancellationToken.None);
        var missing = await client.GetAsync(key + "-never-written", CancellationToken.None);
        return new ClientRoundTrip(version, length, swapped, stale, after, missing);
    }
}
