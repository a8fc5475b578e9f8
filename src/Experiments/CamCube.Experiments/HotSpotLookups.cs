namespace CamCube.Experiments;

/// <summary>
/// The lookups of a <see cref="HotSpotExperiment"/>, drawn once and replayed in both runs: each is
/// made by a server picked uniformly at random and asks for the item of a Zipf-distributed rank
/// (symbiotic-routing 3.3). Item r's key is <c>item:{r - 1}</c>, so popularity is independent of place.
/// </summary>
internal sealed class HotSpotLookups
{
    private const int Stream = 0x4853; // "HS": the lookups' own random stream.

    private HotSpotLookups(int[] requesters, int[] ranks)
    {
        Requesters = requesters;
        Ranks = ranks;
    }

    /// <summary>Gets each lookup's requesting server, as an index of the shape.</summary>
    public IReadOnlyList<int> Requesters { get; }

    /// <summary>Gets each lookup's item rank, 1 the most popular.</summary>
    public IReadOnlyList<int> Ranks { get; }

    /// <summary>Gets the number of lookups.</summary>
    public int Count => Ranks.Count;

    /// <summary>Draws the lookups of <paramref name="options"/> from its seed.</summary>
    public static HotSpotLookups Draw(HotSpotOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        var random = new Random(Seeds.For(options.Seed, default, Stream));
        var zipf = new ZipfSampler(options.Items, options.ZipfExponent);
        var requesters = new int[options.Lookups];
        var ranks = new int[options.Lookups];
        var servers = (int)options.Shape.ServerCount;
        for (var i = 0; i < ranks.Length; i++)
        {
            requesters[i] = random.Next(servers);
            ranks[i] = zipf.Next(random);
        }

        return new HotSpotLookups(requesters, ranks);
    }

    /// <summary>Gets the key of the item of <paramref name="rank"/>.</summary>
    public static byte[] KeyOf(int rank) => System.Text.Encoding.ASCII.GetBytes(string.Create(System.Globalization.CultureInfo.InvariantCulture, $"item:{rank - 1}"));

    /// <summary>Gets the value stored for the item of <paramref name="rank"/>, so that a hit can be checked.</summary>
    public static byte[] ValueOf(int rank) => System.Text.Encoding.ASCII.GetBytes(string.Create(System.Globalization.CultureInfo.InvariantCulture, $"value:{rank - 1}"));
}
