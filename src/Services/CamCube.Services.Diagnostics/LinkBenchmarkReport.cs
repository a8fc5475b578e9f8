namespace CamCube.Services.Diagnostics;

/// <summary>What one server received during a link benchmark.</summary>
/// <param name="Server">The server.</param>
/// <param name="Links">How many of its links were saturated.</param>
/// <param name="Elapsed">The time since the benchmark started.</param>
/// <param name="PacketsReceived">Full-size frames received on all links.</param>
/// <param name="BytesReceived">Bytes of those frames.</param>
public readonly record struct LinkBenchmarkReport(Coordinate Server, int Links, TimeSpan Elapsed, long PacketsReceived, long BytesReceived)
{
    /// <summary>Gets the frames received per second.</summary>
    public double PacketsPerSecond => Elapsed > TimeSpan.Zero ? PacketsReceived / Elapsed.TotalSeconds : 0;

    /// <summary>Gets the bits received per second (frame bytes times 8).</summary>
    public double BitsPerSecond => Elapsed > TimeSpan.Zero ? BytesReceived * 8 / Elapsed.TotalSeconds : 0;
}
