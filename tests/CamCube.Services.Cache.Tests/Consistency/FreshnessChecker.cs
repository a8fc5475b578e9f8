namespace CamCube.Services.Cache.Tests.Consistency;

/// <summary>
/// Checks a history of sets, deletes and gets of a few keys against the cache's guarantee: a read
/// returns a value some write of its key produced (a delete produces "no item", as does the start),
/// and never one that a later write had superseded before the read began. A write W' supersedes W
/// for a read R when W' was invoked after W completed and W' completed (was acknowledged) before R
/// was invoked. Writes that never completed may be read but supersede nothing.
/// </summary>
internal static class FreshnessChecker
{
    /// <summary>Returns a description of every read that breaks the guarantee.</summary>
    /// <param name="history">The requests, completed or not.</param>
    /// <param name="missesAllowed">Whether any read may miss, as when servers fail: a cache loses the items whose root failed (camcubeos 5.1), so only hits are checked.</param>
    public static List<string> Violations(IReadOnlyList<HistoryRequest> history, bool missesAllowed = false)
    {
        var violations = new List<string>();
        foreach (var read in history)
        {
            if (read.Operation != CacheOperation.Get || read.Status is not (CacheStatus.Hit or CacheStatus.Miss) || (missesAllowed && read.Status == CacheStatus.Miss))
            {
                continue;
            }

            var writes = history.Where(w => w.KeyText == read.KeyText && w.Operation is CacheOperation.Set or CacheOperation.Delete).ToList();
            var producers = read.Status == CacheStatus.Hit
                ? writes.Where(w => w.Operation == CacheOperation.Set && w.WrittenValue == read.ReadValue && w.InvokedAt <= read.CompletedAt).ToList()
                : writes.Where(w => w.Operation == CacheOperation.Delete && w.InvokedAt <= read.CompletedAt).ToList();
            var fromStart = read.Status == CacheStatus.Miss;
            if (producers.Count == 0 && !fromStart)
            {
                violations.Add($"{read}: no write produced this value");
                continue;
            }

            bool Superseded(TimeSpan producedBy) => writes.Any(w =>
                w.Status is CacheStatus.Stored or CacheStatus.Deleted or CacheStatus.NotFound
                && w.InvokedAt > producedBy
                && w.CompletedAt < read.InvokedAt
                && !(read.Status == CacheStatus.Miss && w.Operation == CacheOperation.Delete));

            var fresh = producers.Any(w => !Superseded(w.CompletedAt)) || (fromStart && !Superseded(TimeSpan.MinValue));
            if (!fresh)
            {
                var newer = writes.Where(w => w.Status is CacheStatus.Stored or CacheStatus.Deleted or CacheStatus.NotFound && w.CompletedAt < read.InvokedAt).OrderByDescending(w => w.CompletedAt).First();
                violations.Add($"{read}: stale, superseded by {newer}");
            }
        }

        return violations;
    }
}
