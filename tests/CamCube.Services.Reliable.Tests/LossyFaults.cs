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

    /// <summary>
    /// Gets the endpoint options of the property tests: a minute without progress before giving up
    /// (and a receiver that forgets a silent flow only after three).
    /// With 5% of frames lost at every hop, one round trip of six hops fails 26% of the time; the
    /// default 10 s allows eight tries (2 s apart at most), all of which fail for about one
    /// exchange in 50,000, which a run of 1,800 exchanges met now and then. These tests prove
    /// delivery and exactly-once under loss, not the give-up time (ExchangeTests proves
    /// that).
    /// </summary>
    public static ReliableOptions Patience { get; } = new() { ProgressTimeout = TimeSpan.FromMinutes(1), ReceiveFlowIdleTimeout = TimeSpan.FromMinutes(3) };
}
