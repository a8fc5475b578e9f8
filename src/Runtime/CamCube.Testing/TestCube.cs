using CamCube.Runtime;

namespace CamCube.Testing;

/// <summary>
/// Starts a cube on either test transport behind one shape, <see cref="ITestCube"/>, so the same
/// test case runs in memory and in the simulator (a service that passes in memory passes
/// unchanged in the simulator: make the transport a theory's parameter).
/// </summary>
public static class TestCube
{
    /// <summary>
    /// Creates and starts a cube of <paramref name="shape"/> on <paramref name="transport"/>, with
    /// default settings: one node per server, each passed to <paramref name="configure"/> (to
    /// register services) before it starts; returns when every link is up.
    /// </summary>
    /// <param name="transport">The test transport.</param>
    /// <param name="shape">The torus.</param>
    /// <param name="configure">Registers services on each node before it starts.</param>
    /// <param name="nodeOptions">Makes each node's settings (null: the transport's defaults).</param>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="transport"/> is not a <see cref="TestTransport"/>.</exception>
    /// <exception cref="TimeoutException">The links did not all come up within 10 virtual seconds.</exception>
    public static ITestCube Start(TestTransport transport, TorusShape shape, Action<Node>? configure = null, Func<NodeOptions>? nodeOptions = null) => transport switch
    {
        TestTransport.InMemory => InMemoryCube.Start(shape, configure, new InMemoryCubeOptions { NodeOptions = nodeOptions }),
        TestTransport.Simulator => SimulatedCube.Start(shape, configure, new SimulatedCubeOptions { NodeOptions = nodeOptions }),
        _ => throw new ArgumentOutOfRangeException(nameof(transport), transport, "Unknown test transport."),
    };
}
