namespace CamCube.Fuzz.Tests;

/// <summary>Tests that run targets run one at a time: the allocation budget counts the whole process's allocations.</summary>
[CollectionDefinition(Name)]
public sealed class FuzzTargetGroup
{
    public const string Name = "fuzz targets";
}
