using CamCube.Transport.Simulation;

namespace CamCube.Services.Reliable.Tests;

/// <summary>The simulated network's default link rate, named for the assertions that compare against it.</summary>
internal static class SimulatedCubeOptionsDefaults
{
    public static double LinkBitsPerSecond => SimulatedNetworkOptions.Default.BandwidthBitsPerSecond;
}
