namespace CamCube.Integration.Tests;

/// <summary>The lifecycle tests run one after another: each starts and kills cubes of node processes.</summary>
[CollectionDefinition(Name)]
public sealed class LifecycleCubes
{
    public const string Name = "cube lifecycle";
}
