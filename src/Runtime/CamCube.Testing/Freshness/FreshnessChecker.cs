namespace CamCube.Testing.Freshness;

/// <summary>
/// Checks a history of sets, deletes and gets of a few keys against a cache's guarantee: a read
/// returns a value some write of its key produced (a delete produces "no item", as does the start),
/// and never one that a later write had superseded before the read began. A write W' supersedes W
/// for a read R when W' was invoked after W completed and W' was acknowledged before R was
/// invoked. Writes never acknowledged may be read but supersede nothing.
/// </summary>
public static class FreshnessChecker
{
    /// <summary>Returns a description of every read that breaks the guarantee.</summary>
    /// <param name="history">The requests, answered or not, of every client.</param>
    /// <param name="missesAllowed">Whether any read may miss, as when servers fail: a cache loses the items whose root failed (camcubeos 5.1), so only hits are checked.</param>
    /// <returns>One line per stale or invented read; empty when the history keeps the guarantee.</returns>
    public static List<string> Violations(IReadOnlyList<CacheHistoryEntry> history, bool missesAllowed = false)
    {
        ArgumentNullException.ThrowIfNull(history);
        var violations = new List<string>();
        var writesByKey = history.Where(w => w.Operation != CacheHistoryOperation.Get).ToLookup(w => w.Key, StringComparer.Ordinal);
        foreach (var read in history)
        {
            if (read.Operation != CacheHistoryOperation.Get || read.Outcome is not (CacheHistoryOutcome.Hit or CacheHistoryOutcome.Miss) || (missesAllowed && read.Outcome == CacheHistoryOutcome.Miss))
            {
                continue;
            }

            var writes = writesByKey[read.Key].ToList();
            var hit = read.Outcome == CacheHistoryOutcome.Hit;
            var producers = hit
                ? writes.Where(w => w.Operation == CacheHistoryOperation.Set && w.Value == read.Value && w.InvokedAt <= read.CompletedAt).ToList()
                : writes.Where(w => w.Operation == CacheHistoryOperation.Delete && w.InvokedAt <= read.CompletedAt).ToList();
            if (producers.Count == 0 && hit)
            {
                violations.Add($"{read}: no write produced this value");
                continue;
            }

            bool Superseded(long producedBy) => writes.Any(w =>
                w.IsAcknowledgedWrite
                && w.InvokedAt > producedBy
                && w.CompletedAt < read.InvokedAt
                && !(!hit && w.Operation == CacheHistoryOperation.Delete));

            var fresh = producers.Any(w => !Superseded(w.CompletedAt)) || (!hit && !Superseded(long.MinValue));
            if (!fresh)
            {
                var newer = writes.Where(w => w.IsAcknowledgedWrite && w.CompletedAt < read.InvokedAt).MaxBy(w => w.CompletedAt);
                violations.Add($"{read}: stale, superseded by {newer}");
            }
        }

        return violations;
    }
}
