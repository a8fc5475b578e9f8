using CamCube.Runtime;
using CamCube.Testing;

namespace CamCube.Services.Reliable.Tests;

/// <summary>A test cube with a <see cref="ReliableService"/> on every node and an <see cref="Inbox"/> per node (the newest after a restart).</summary>
internal sealed class ReliableCube
{
    public const ushort ServiceId = 0x0520;

    private readonly Dictionary<Coordinate, Inbox> _inboxes = [];
    private readonly List<Inbox> _everyInbox = [];

    private readonly Func<Coordinate, ReliableOptions?>? _optionsOf;

    private ReliableCube(ReliableOptions? options, Func<Coordinate, ReliableOptions?>? optionsOf = null)
    {
        Options = options;
        _optionsOf = optionsOf;
    }

    public ITestCube Cube { get; private set; } = null!;

    public ReliableOptions? Options { get; }

    public static ReliableCube InMemory(TorusShape shape, ReliableOptions? options = null)
    {
        var cube = new ReliableCube(options);
        cube.Cube = InMemoryCube.Start(shape, cube.Configure);
        return cube;
    }

    public static ReliableCube Simulated(TorusShape shape, SimulatedCubeOptions simulation, ReliableOptions? options = null)
    {
        var cube = new ReliableCube(options);
        cube.Cube = SimulatedCube.Start(shape, cube.Configure, simulation);
        return cube;
    }

    /// <summary>A simulated cube whose servers' endpoints have settings of their own.</summary>
    public static ReliableCube Simulated(TorusShape shape, SimulatedCubeOptions simulation, Func<Coordinate, ReliableOptions?> optionsOf)
    {
        var cube = new ReliableCube(null, optionsOf);
        cube.Cube = SimulatedCube.Start(shape, cube.Configure, simulation);
        return cube;
    }

    public Inbox InboxOf(Coordinate server) => _inboxes[server];

    /// <summary>Gets the inbox of every life of every server, the earlier lives' included.</summary>
    public IReadOnlyList<Inbox> EveryInbox => _everyInbox;

    public ReliableEndpoint EndpointOf(Coordinate server) => Cube[server].GetService<ReliableService>()!.Endpoint;

    /// <summary>Gets the packets of the reliable service delivered at every live node: each packet counted once, at its destination.</summary>
    public long PacketsDelivered() => Cube.LiveNodes.Sum(n => n.GetServiceCounters(ServiceId)!.PacketsDelivered);

    /// <summary>A message whose bytes follow from its seed and index, so the receiver's copy can be checked byte for byte.</summary>
    public static byte[] Payload(int seed, int index, int length)
    {
        var bytes = new byte[length];
        new Random(HashCode.Combine(seed, index)).NextBytes(bytes);
        if (length >= 4)
        {
            BitConverter.TryWriteBytes(bytes, index);
        }

        return bytes;
    }

    private void Configure(Node node)
    {
        var inbox = new Inbox(node.Self);
        _inboxes[node.Self] = inbox;
        _everyInbox.Add(inbox);
        ReliableService? service = null;
        service = new ReliableService(ServiceId, "reliable", inbox.Record, (in ExchangeRequest request) => inbox.Answer(service!.Endpoint, request), _optionsOf is null ? Options : _optionsOf(node.Self));
        node.Register(service);
    }
}
