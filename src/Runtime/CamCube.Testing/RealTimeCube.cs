using CamCube.Packets;
using CamCube.Runtime;
using CamCube.Runtime.Loops;
using CamCube.Transport;
using CamCube.Transport.InMemory;

namespace CamCube.Testing;

/// <summary>
/// A whole cube of real <see cref="Node"/>s on the in-memory transport, sharing one
/// <see cref="ThreadedEventLoop"/> in real time (<see cref="TimeProvider.System"/>): the place to
/// test what talks to a cube from other threads, such as a TCP front-end. For deterministic tests
/// use <see cref="InMemoryCube"/>.
/// </summary>
public sealed class RealTimeCube : IDisposable
{
    private readonly Node[] _nodes;

    private RealTimeCube(TorusShape shape, InMemoryCubeOptions options)
    {
        Shape = shape;
        Loop = new ThreadedEventLoop($"cube {shape}", TimeProvider.System);
        Network = new InMemoryNetwork(shape, Loop, options.LinkCapacityFrames);
        Pool = new PacketPool(options.PacketCapacityBytes);
        _nodes = new Node[shape.ServerCount];
    }

    /// <summary>Gets the shape.</summary>
    public TorusShape Shape { get; }

    /// <summary>Gets the loop every node runs on.</summary>
    public ThreadedEventLoop Loop { get; }

    /// <summary>Gets the wiring.</summary>
    public InMemoryNetwork Network { get; }

    /// <summary>Gets the packet pool all nodes share.</summary>
    public PacketPool Pool { get; }

    /// <summary>Gets the node at <paramref name="server"/>; touch its state only through <see cref="InvokeAsync{T}"/>.</summary>
    public Node this[Coordinate server] => _nodes[Shape.IndexOf(server)];

    /// <summary>
    /// Creates and starts a cube, passing each node to <paramref name="configure"/> (to register services)
    /// before it starts, and waits until every link is up.
    /// </summary>
    /// <exception cref="TimeoutException">The links did not come up within <paramref name="timeout"/>.</exception>
    public static async Task<RealTimeCube> StartAsync(TorusShape shape, Action<Node>? configure, TimeSpan timeout, InMemoryCubeOptions? options = null)
    {
        options ??= new InMemoryCubeOptions();
        var cube = new RealTimeCube(shape, options);
        await cube.InvokeAsync(() =>
        {
            for (long i = 0; i < shape.ServerCount; i++)
            {
                var node = new Node(cube.Network.CreateTransport(shape.CoordinateAt(i)), cube.Loop, cube.Pool, options.NodeOptions?.Invoke() ?? new NodeOptions { PublishMetrics = false }, options.LoggerFactory);
                configure?.Invoke(node);
                cube._nodes[i] = node;
                node.Start();
            }

            return true;
        }).ConfigureAwait(false);

        var deadline = TimeProvider.System.GetTimestamp() + (long)(timeout.TotalSeconds * TimeProvider.System.TimestampFrequency);
        while (!await cube.InvokeAsync(cube.Converged).ConfigureAwait(false))
        {
            if (TimeProvider.System.GetTimestamp() > deadline)
            {
                cube.Dispose();
                throw new TimeoutException($"The links of the {shape} cube did not all come up and converge within {timeout}.");
            }

            await Task.Delay(TimeSpan.FromMilliseconds(10), TimeProvider.System).ConfigureAwait(false);
        }

        return cube;
    }

    /// <summary>Runs <paramref name="function"/> on the cube's loop and returns its result.</summary>
    public Task<T> InvokeAsync<T>(Func<T> function) => Loop.InvokeAsync(function);

    /// <summary>Stops every node and the loop.</summary>
    public void Dispose()
    {
        foreach (var node in _nodes)
        {
            node?.Stop();
        }

        Loop.Dispose();
    }

    private bool Converged()
    {
        foreach (var node in _nodes)
        {
            if (node.Reachability.ReachableCount != Shape.ServerCount)
            {
                return false;
            }

            for (var d = 0; d < LinkDirections.Count; d++)
            {
                if (Shape.HasLink((LinkDirection)d) && !node.IsLinkUp((LinkDirection)d))
                {
                    return false;
                }
            }
        }

        return true;
    }
}
