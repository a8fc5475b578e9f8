using System.Diagnostics;
using CamCube.Transport.Simulation;

namespace CamCube.Experiments;

/// <summary>
/// Drives an experiment's engine through its virtual time in steps, reporting progress, and reads
/// the wall clock and memory for the report. Wall time is measured, never used for the simulation.
/// </summary>
internal sealed class ExperimentClock(SimulationEngine engine, IProgress<double>? progress)
{
    private const int Steps = 100;
    private readonly long _startTimestamp = Stopwatch.GetTimestamp();

    /// <summary>Gets the wall-clock seconds since this clock was made.</summary>
    public double WallSeconds => Stopwatch.GetElapsedTime(_startTimestamp).TotalSeconds;

    /// <summary>Gets the process's peak working set in bytes.</summary>
    public static long PeakWorkingSetBytes
    {
        get
        {
            using var process = Process.GetCurrentProcess();
            return process.PeakWorkingSet64;
        }
    }

    /// <summary>Runs the engine until <paramref name="until"/>, reporting progress between <paramref name="from"/> and <paramref name="to"/> (0..1).</summary>
    public void RunTo(TimeSpan until, double from = 0, double to = 1)
    {
        var start = engine.Elapsed;
        var span = until - start;
        for (var step = 1; step <= Steps; step++)
        {
            engine.Run(start + (span * step / Steps));
            progress?.Report(from + ((to - from) * step / Steps));
        }
    }
}
