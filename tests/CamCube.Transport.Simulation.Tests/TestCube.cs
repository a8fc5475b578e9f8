using CamCube.Runtime;
using CamCube.Testing;

namespace CamCube.Transport.Simulation.Tests;

/// <summary>
/// One face for a cube on either transport, so the same test cases run in memory and in the
/// simulator (simulator issue: a service that passes in memory passes unchanged in the simulator).
/// </summary>
internal abstract class TestCube
{
    public const string InMemory = "in-memory";
    public const string Simulator = "simulator";

    public abstract TimeSpan Elapsed { get; }

    public abstract Node this[Coordinate server] { get; }

    public static TestCube Start(string transport, TorusShape shape, Action<Node> configure, Func<NodeOptions>? nodeOptions = null) => transport switch
    {
        InMemory => new InMemoryTestCube(InMemoryCube.Start(shape, configure, new InMemoryCubeOptions { NodeOptions = nodeOptions })),
        Simulator => SimulatedTestCube.Start(shape, configure, nodeOptions),
        _ => throw new ArgumentOutOfRangeException(nameof(transport), transport, "Unknown transport."),
    };

    public abstract void Kill(Coordinate server);

    public abstract bool RunUntil(Func<bool> condition, TimeSpan timeout);

    public abstract bool ViewsConverged();

    private sealed class InMemoryTestCube(InMemoryCube cube) : TestCube
    {
        public override TimeSpan Elapsed => cube.Clock.Elapsed;

        public override Node this[Coordinate server] => cube[server];

        public override void Kill(Coordinate server) => cube.Kill(server);

        public override bool RunUntil(Func<bool> condition, TimeSpan timeout) => cube.RunUntil(condition, timeout);

        public override bool ViewsConverged() => cube.ViewsConverged();
    }

    private sealed class SimulatedTestCube(SimulatedCube cube) : TestCube
    {
        public override TimeSpan Elapsed => cube.Engine.Elapsed;

        public override Node this[Coordinate server] => cube[server];

        public static SimulatedTestCube Start(TorusShape shape, Action<Node> configure, Func<NodeOptions>? nodeOptions)
        {
            var cube = new SimulatedCube(shape, configure, nodeOptions is null ? null : new SimulatedCubeOptions { NodeOptions = nodeOptions });
            cube.StartAll();
            return new SimulatedTestCube(cube);
        }

        public override void Kill(Coordinate server) => cube.Kill(server);

        public override bool RunUntil(Func<bool> condition, TimeSpan timeout) => cube.Engine.RunUntil(condition, cube.Engine.Elapsed + timeout);

        public override bool ViewsConverged() => cube.ViewsConverged();
    }
}
