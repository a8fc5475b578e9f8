namespace CamCube.Testing.Freshness;

/// <summary>One request of a cache history, on one clock shared by every client (the simulator's virtual time, or one monotonic clock on one host).</summary>
/// <param name="Client">The client that issued it.</param>
/// <param name="Key">The key it read or wrote.</param>
/// <param name="Operation">What it did.</param>
/// <param name="Value">The value a set wrote or a hit returned; null otherwise. Every set writes a value of its own.</param>
/// <param name="Outcome">How it ended.</param>
/// <param name="InvokedAt">When it was issued, in ticks of the history's clock.</param>
/// <param name="CompletedAt">When its answer came, in the same ticks; <see cref="long.MaxValue"/> if it never came.</param>
public sealed record CacheHistoryEntry(int Client, string Key, CacheHistoryOperation Operation, string? Value, CacheHistoryOutcome Outcome, long InvokedAt, long CompletedAt)
{
    /// <summary>Gets whether this is a write the cache acknowledged.</summary>
    public bool IsAcknowledgedWrite => Operation != CacheHistoryOperation.Get && Outcome == CacheHistoryOutcome.Acknowledged;

    /// <inheritdoc/>
    public override string ToString()
    {
        var written = Operation == CacheHistoryOperation.Set ? $"={Value}" : "";
        var read = Outcome == CacheHistoryOutcome.Hit ? $" {Value}" : "";
        var completed = CompletedAt == long.MaxValue ? "never" : CompletedAt.ToString(System.Globalization.CultureInfo.InvariantCulture);
        return string.Create(System.Globalization.CultureInfo.InvariantCulture, $"client {Client} {Operation} {Key}{written} [{InvokedAt}, {completed}] -> {Outcome}{read}");
    }
}
