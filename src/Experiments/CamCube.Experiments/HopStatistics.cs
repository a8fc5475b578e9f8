using System.Text.Json.Serialization;

namespace CamCube.Experiments;

/// <summary>What one run of a <see cref="HotSpotExperiment"/> measured: the hops from each requester to the server that answered its lookup with a hit.</summary>
public sealed record HopStatistics
{
    /// <summary>Gets k, the secondary replicas per key (0: base routing, every lookup goes to the primary).</summary>
    public required int K { get; init; }

    /// <summary>Gets the hash of this run's event trace, 16 hex digits.</summary>
    public required string TraceHash { get; init; }

    /// <summary>Gets the engine events of this run.</summary>
    public required long Events { get; init; }

    /// <summary>Gets the lookups made.</summary>
    public required int Lookups { get; init; }

    /// <summary>Gets the lookups answered with a hit carrying the item's value.</summary>
    public required int Hits { get; init; }

    /// <summary>Gets the lookups answered otherwise (miss, timeout, busy) or with a wrong value.</summary>
    public int NotHits => Lookups - Hits;

    /// <summary>Gets the hits answered from a secondary's copy rather than by the root.</summary>
    public required long SecondaryHits { get; init; }

    /// <summary>Gets the median hops to a hit.</summary>
    public required double MedianHops { get; init; }

    /// <summary>Gets the mean hops to a hit.</summary>
    public required double MeanHops { get; init; }

    /// <summary>Gets the 90th percentile of hops to a hit (nearest rank).</summary>
    public required int P90Hops { get; init; }

    /// <summary>Gets the most hops to a hit.</summary>
    public required int MaxHops { get; init; }

    /// <summary>Gets the number of hits at each hop count: element h counts hits after h hops.</summary>
    public required IReadOnlyList<int> HopsHistogram { get; init; }

    /// <summary>Gets the fraction of hits within each hop count (Fig. 3's CDF): element h is the share of hits after at most h hops.</summary>
    public required IReadOnlyList<double> HopsCdf { get; init; }

    /// <summary>Gets the wall-clock seconds to start the cube (links up, routes settled).</summary>
    public required double StartWallSeconds { get; init; }

    /// <summary>Gets the wall-clock seconds to store the items.</summary>
    public required double LoadWallSeconds { get; init; }

    /// <summary>Gets the wall-clock seconds of the lookups.</summary>
    public required double LookupWallSeconds { get; init; }

    /// <summary>Gets each lookup's hops to its hit, -1 where it was not a hit; in lookup order (not written to JSON).</summary>
    [JsonIgnore]
    public IReadOnlyList<int> HopsPerLookup { get; init; } = [];

    /// <summary>Summarises <paramref name="hopsPerLookup"/> (-1 for a lookup that was not a hit).</summary>
    public static HopStatistics Of(int k, int[] hopsPerLookup, long secondaryHits, string traceHash, long events, double startSeconds, double loadSeconds, double lookupSeconds)
    {
        ArgumentNullException.ThrowIfNull(hopsPerLookup);
        var hits = 0;
        var max = 0;
        long sum = 0;
        foreach (var h in hopsPerLookup)
        {
            if (h >= 0)
            {
                hits++;
                sum += h;
                max = Math.Max(max, h);
            }
        }

        var histogram = new int[max + 1];
        foreach (var h in hopsPerLookup)
        {
            if (h >= 0)
            {
                histogram[h]++;
            }
        }

        var cdf = new double[histogram.Length];
        var below = 0;
        for (var h = 0; h < histogram.Length; h++)
        {
            below += histogram[h];
            cdf[h] = hits == 0 ? 0 : (double)below / hits;
        }

        return new HopStatistics
        {
            K = k,
            TraceHash = traceHash,
            Events = events,
            Lookups = hopsPerLookup.Length,
            Hits = hits,
            SecondaryHits = secondaryHits,
            MedianHops = hits == 0 ? 0 : (Rank(histogram, (hits - 1) / 2) + Rank(histogram, hits / 2)) / 2.0,
            MeanHops = hits == 0 ? 0 : (double)sum / hits,
            P90Hops = hits == 0 ? 0 : Rank(histogram, (int)Math.Ceiling(0.9 * hits) - 1),
            MaxHops = max,
            HopsHistogram = histogram,
            HopsCdf = cdf,
            StartWallSeconds = startSeconds,
            LoadWallSeconds = loadSeconds,
            LookupWallSeconds = lookupSeconds,
            HopsPerLookup = hopsPerLookup,
        };
    }

    /// <summary>Gets the hop count of the hit at position <paramref name="index"/> (0-based) in ascending order.</summary>
    private static int Rank(int[] histogram, int index)
    {
        var seen = 0;
        for (var h = 0; h < histogram.Length; h++)
        {
            seen += histogram[h];
            if (seen > index)
            {
                return h;
            }
        }

        return histogram.Length - 1;
    }
}
