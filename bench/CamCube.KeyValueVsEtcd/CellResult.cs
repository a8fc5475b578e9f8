namespace CamCube.KeyValueVsEtcd;

/// <summary>What one target did in one cell.</summary>
/// <param name="Target">The target's name.</param>
/// <param name="Spec">The cell.</param>
/// <param name="Operations">Operations completed without error (CAS: whose conditional write happened).</param>
/// <param name="Errors">Operations that failed (an exception, a wrong value length, a missing key, or a CAS refused although no other worker writes the key).</param>
/// <param name="Seconds">Wall time from the start of the first worker to the end of the last.</param>
/// <param name="Latency">Latency of the completed operations, in microseconds.</param>
/// <param name="FirstError">The first error's message, if any.</param>
/// <param name="ServerCpuSeconds">CPU time the target's server processes used during the cell (NaN when they are not known).</param>
internal sealed record CellResult(string Target, CellSpec Spec, int Operations, int Errors, double Seconds, LatencySummary Latency, string? FirstError, double ServerCpuSeconds = double.NaN)
{
    /// <summary>Gets the server processes' CPU time per completed operation in microseconds (NaN when not known).</summary>
    public double ServerCpuMicrosecondsPerOperation => Operations > 0 ? ServerCpuSeconds * 1e6 / Operations : double.NaN;

    /// <summary>Gets the completed operations per second.</summary>
    public double OperationsPerSecond => Seconds > 0 ? Operations / Seconds : 0;
}
