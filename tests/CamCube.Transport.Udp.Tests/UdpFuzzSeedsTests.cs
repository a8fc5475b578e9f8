using CamCube.Testing;

namespace CamCube.Transport.Udp.Tests;

/// <summary>
/// The kept UDP fuzz seeds are what today's encoder writes. To regenerate them after a
/// change to the datagram layout, run these tests with CAMCUBE_WRITE_FUZZ_SEEDS=1 and commit the files.
/// </summary>
public sealed class UdpFuzzSeedsTests
{
    [Fact]
    public void KeptSeedsEqualEncoderOutputWhenReplayed() =>
        Assert.Empty(KeptFuzzSeeds.Stale("udp", UdpFuzzSeeds.All()));
}
