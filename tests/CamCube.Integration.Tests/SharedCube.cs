namespace CamCube.Integration.Tests;

/// <summary>One 27-process cube shared by the test classes that need it; they run one after another.</summary>
[CollectionDefinition(Name)]
public sealed class SharedCube : ICollectionFixture<CubeFixture>
{
    public const string Name = "27-process cube";
}
