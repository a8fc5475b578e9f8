namespace CamCube.Services.KeyValue.Tests;

/// <summary>
/// Tests that count every allocation of the process (<see cref="GC.GetTotalAllocatedBytes"/>) run
/// after the parallel tests, one at a time, so no other test's work is counted.
/// </summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class QuietProcessGroup
{
    public const string Name = "quiet process";
}
