namespace CamCube.Services.Cache.Tests;

/// <summary>Tests on real-time cubes run one class at a time, so their cubes do not compete for the CPU.</summary>
[CollectionDefinition(Name)]
public sealed class RealTimeGroup
{
    public const string Name = "real-time cube";
}
