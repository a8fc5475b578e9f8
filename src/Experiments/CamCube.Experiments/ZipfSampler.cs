namespace CamCube.Experiments;

/// <summary>
/// Draws ranks 1..n from a Zipf distribution with exponent s: rank r has probability
/// r^-s / H(n, s) (symbiotic-routing 3.3 draws lookups from Zipf with s = 1.5). Inverse transform
/// over a table of the cumulative distribution: n doubles, built once; each draw is one binary search.
/// </summary>
internal sealed class ZipfSampler
{
    private readonly double[] _cumulative;

    /// <summary>Builds the table for ranks 1..<paramref name="count"/> and exponent <paramref name="exponent"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The count is below 1 or the exponent is not positive.</exception>
    public ZipfSampler(int count, double exponent)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(count, 1);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(exponent);
        Exponent = exponent;
        _cumulative = new double[count];
        var sum = 0.0;
        for (var r = 1; r <= count; r++)
        {
            sum += Math.Pow(r, -exponent);
            _cumulative[r - 1] = sum;
        }

        for (var i = 0; i < count; i++)
        {
            _cumulative[i] /= sum;
        }

        // Rounding must not leave a gap above the last rank.
        _cumulative[^1] = 1.0;
    }

    /// <summary>Gets n, the number of ranks.</summary>
    public int Count => _cumulative.Length;

    /// <summary>Gets s, the exponent.</summary>
    public double Exponent { get; }

    /// <summary>Gets the probability of <paramref name="rank"/> (1..n).</summary>
    public double Probability(int rank) => rank == 1 ? _cumulative[0] : _cumulative[rank - 1] - _cumulative[rank - 2];

    /// <summary>Draws a rank (1..n) with one value of <paramref name="random"/>.</summary>
    public int Next(Random random)
    {
        ArgumentNullException.ThrowIfNull(random);
        var u = random.NextDouble();

        // Rank r covers [F(r - 1), F(r)); an exact hit on F(r) belongs to the next rank.
        var i = Array.BinarySearch(_cumulative, u);
        i = i >= 0 ? i + 1 : ~i;
        return Math.Min(i, _cumulative.Length - 1) + 1;
    }
}
