namespace CamCube.Integration.Tests;

/// <summary>A 3x1x1 cube of node processes (each node has a +x and a -x link) for the fault-drill tests; stopped after them.</summary>
public sealed class DrillCubeFixture : IDisposable
{
    public DrillCubeFixture()
    {
        Cube = new LifecycleCube("3x1x1");
        var (exit, output, error) = Cube.UpDetached();
        if (exit != 0)
        {
            Cube.Dispose();
            throw new InvalidOperationException($"cube up failed ({exit}): {output} {error}");
        }
    }

    internal LifecycleCube Cube { get; }

    public void Dispose() => Cube.Dispose();
}
