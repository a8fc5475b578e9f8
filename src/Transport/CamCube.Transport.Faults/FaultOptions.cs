namespace CamCube.Transport.Faults;

/// <summary>
/// The random faults a <see cref="FaultInjectingTransport"/> applies to each frame it receives.
/// Immutable; swap the whole set with <see cref="FaultInjectingTransport.Faults"/>.
/// </summary>
/// <remarks>
/// For each received frame the decorator draws, in this order and only for a non-zero
/// probability, one <see cref="Random.NextDouble"/> each: drop, then duplicate, then reorder. So a
/// seed and a sequence of frames give the same faults on every run.
/// </remarks>
public sealed record FaultOptions
{
    /// <summary>Gets the options that inject nothing.</summary>
    public static FaultOptions None { get; } = new();

    /// <summary>Gets the probability (0 to 1) that a received frame is dropped.</summary>
    public double DropProbability { get; init; }

    /// <summary>Gets the probability (0 to 1) that a received frame is delivered twice (the copy right after the original).</summary>
    public double DuplicateProbability { get; init; }

    /// <summary>Gets the delay added to every received frame; the same for all, so it keeps their order.</summary>
    public TimeSpan Delay { get; init; }

    /// <summary>Gets the probability (0 to 1) that a received frame is held back by <see cref="ReorderDelay"/>, so that later frames overtake it.</summary>
    public double ReorderProbability { get; init; }

    /// <summary>Gets how long a reordered frame is held back beyond <see cref="Delay"/> (default 100 µs).</summary>
    public TimeSpan ReorderDelay { get; init; } = TimeSpan.FromMicroseconds(100);

    /// <summary>Throws if a probability is outside 0..1 or a delay is negative.</summary>
    /// <exception cref="ArgumentOutOfRangeException">An option is out of range.</exception>
    public void Validate()
    {
        CheckProbability(DropProbability, nameof(DropProbability));
        CheckProbability(DuplicateProbability, nameof(DuplicateProbability));
        CheckProbability(ReorderProbability, nameof(ReorderProbability));
        ArgumentOutOfRangeException.ThrowIfLessThan(Delay, TimeSpan.Zero, nameof(Delay));
        ArgumentOutOfRangeException.ThrowIfLessThan(ReorderDelay, TimeSpan.Zero, nameof(ReorderDelay));
    }

    private static void CheckProbability(double value, string name)
    {
        if (!(value is >= 0 and <= 1))
        {
            throw new ArgumentOutOfRangeException(name, value, "A probability is from 0 to 1.");
        }
    }
}
