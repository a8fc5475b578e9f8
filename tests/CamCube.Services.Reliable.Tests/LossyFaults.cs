using CamCube.Transport.Faults;

namespace CamCube.Services.Reliable.Tests;

/// <summary>The faults of the property tests: 5% of packets dropped, 5% duplicated, 5% reordered.</summary>
internal static class LossyFaults
{
    public static FaultOptions Options { get; } = new()
    {
        DropProbability = 0.05,
        DuplicateProbability = 0.05,
        ReorderProbability = 0.05,
    };
}
