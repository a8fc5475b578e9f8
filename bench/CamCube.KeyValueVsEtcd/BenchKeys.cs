using System.Globalization;

namespace CamCube.KeyValueVsEtcd;

/// <summary>The keys of a run: worker w of a value size uses its own <see cref="PerWorker"/> keys, so no two workers write one key.</summary>
/// <param name="RunId">Makes this run's keys differ from an earlier run's on the same store.</param>
/// <param name="PerWorker">Keys per worker.</param>
internal sealed record BenchKeys(string RunId, int PerWorker)
{
    /// <summary>The <paramref name="index"/>-th key (modulo <see cref="PerWorker"/>) of a worker for values of a size.</summary>
    /// <param name="valueBytes">The value size.</param>
    /// <param name="worker">The worker.</param>
    /// <param name="index">Any non-negative number.</param>
    /// <returns>The key.</returns>
    public string Key(int valueBytes, int worker, int index) =>
        string.Create(CultureInfo.InvariantCulture, $"kvbench-{RunId}-s{valueBytes}-w{worker}-k{index % PerWorker}");
}
