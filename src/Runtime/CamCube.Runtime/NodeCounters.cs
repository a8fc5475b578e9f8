using CamCube.Services;

namespace CamCube.Runtime;

/// <summary>A node's counters: per link, per service and drops by reason.</summary>
public sealed class NodeCounters
{
    private readonly long[] _drops = new long[Enum.GetValues<DropReason>().Length];

    internal NodeCounters()
    {
        for (var i = 0; i < Links.Length; i++)
        {
            Links[i] = new LinkCounters(LinkCounts, i);
        }
    }

    /// <summary>Gets the counters of every link in one array, <see cref="LinkCounters.CountersPerLink"/> per link: what a hop increments.</summary>
    internal long[] LinkCounts { get; } = new long[LinkDirections.Count * LinkCounters.CountersPerLink];

    /// <summary>Gets the counters of each link, indexed by <see cref="LinkDirection"/>.</summary>
    public LinkCounters[] Links { get; } = new LinkCounters[LinkDirections.Count];

    /// <summary>Gets the packets dropped for <paramref name="reason"/>.</summary>
    public long Dropped(DropReason reason) => _drops[(int)reason];

    /// <summary>Gets all packets dropped, for any reason.</summary>
    public long DroppedTotal
    {
        get
        {
            long total = 0;
            foreach (var count in _drops)
            {
                total += count;
            }

            return total;
        }
    }

    /// <summary>Gets the drop notices this node did not send because it was sending them faster than <see cref="NodeOptions.DropNoticesPerSecondMax"/>.</summary>
    public long DropNoticesSuppressed { get; internal set; }

    internal void CountDrop(DropReason reason) => _drops[(int)reason]++;
}
