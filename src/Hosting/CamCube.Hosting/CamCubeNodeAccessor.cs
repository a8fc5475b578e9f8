namespace CamCube.Hosting;

/// <summary>The node a host runs, for other parts of the host: null until the host has started it and after it stopped.</summary>
public sealed class CamCubeNodeAccessor
{
    private volatile CamCubeNode? _node;

    /// <summary>Gets the running node, or null.</summary>
    public CamCubeNode? Node => _node;

    internal void Set(CamCubeNode? node) => _node = node;
}
