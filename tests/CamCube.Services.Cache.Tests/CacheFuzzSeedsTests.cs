using CamCube.Testing;

namespace CamCube.Services.Cache.Tests;

/// <summary>
/// The kept cache fuzz seeds are what today's encoder writes. To regenerate them after a
/// change to the cache's message layout, run these tests with CAMCUBE_WRITE_FUZZ_SEEDS=1 and commit the files.
/// </summary>
public sealed class CacheFuzzSeedsTests
{
    [Fact]
    public void KeptSeedsEqualEncoderOutputWhenReplayed() =>
        Assert.Empty(KeptFuzzSeeds.Stale("cache", CacheFuzzSeeds.All()));
}
