namespace CamCube.KeyValueVsEtcd;

/// <summary>One cell of the comparison: an operation, a value size and a number of concurrent workers, bounded in count and time.</summary>
/// <param name="Operation">What the workers do.</param>
/// <param name="ValueBytes">The size of every value written.</param>
/// <param name="Concurrency">The number of workers, each with one request outstanding.</param>
/// <param name="OperationsMax">The most operations started in the cell (over all workers).</param>
/// <param name="Duration">The longest the cell runs; workers start no operation after it.</param>
/// <param name="OperationsPerWorkerMax">The most operations one worker starts (the preload: each worker writes each of its keys once).</param>
internal sealed record CellSpec(BenchOperation Operation, int ValueBytes, int Concurrency, int OperationsMax, TimeSpan Duration, int OperationsPerWorkerMax = int.MaxValue);
