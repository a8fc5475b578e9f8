using CamCube.Runtime;
using CamCube.Services.KeyValue.Storage;
using CamCube.Testing;

namespace CamCube.Services.KeyValue.Tests;

/// <summary>
/// A test cube whose every node runs the store on a memory storage that outlives the node, as a
/// disk does: a restarted server finds its replicas again (<see cref="Wipe"/> loses them, as a new disk).
/// </summary>
internal sealed class StoreCube
{
    private readonly Dictionary<Coordinate, MemoryKeyValueStorage> _disks = [];

    public StoreCube(ITestCube cube, Dictionary<Coordinate, MemoryKeyValueStorage> disks)
    {
        Cube = cube;
        _disks = disks;
    }

    public ITestCube Cube { get; }

    public static StoreCube Start(TestTransport transport, TorusShape shape, KeyValueServiceOptions? options = null) =>
        Start(disks => TestCube.Start(transport, shape, node => Register(node, disks, options)), options);

    public static StoreCube StartSimulated(TorusShape shape, SimulatedCubeOptions cubeOptions, KeyValueServiceOptions? options = null) =>
        Start(disks => SimulatedCube.Start(shape, node => Register(node, disks, options), cubeOptions), options);

    /// <summary>Runs the cube past one read lease, so the servers, just started, promise ballots (docs/key-value-store.md, "Read leases").</summary>
    public void PassStartLease(KeyValueServiceOptions? options) => Cube.RunFor((options ?? KeyValueServiceOptions.Default).ReadLease);

    public KeyValueService this[Coordinate server] => Cube[server].GetService<KeyValueService>()!;

    public MemoryKeyValueStorage DiskOf(Coordinate server) => _disks[server];

    /// <summary>Runs the cube until <paramref name="call"/> completes (or 30 virtual seconds pass), then returns its result.</summary>
    public async Task<T> Run<T>(Task<T> call)
    {
        Assert.True(Cube.RunUntil(() => call.IsCompleted, TimeSpan.FromSeconds(30)), "The call did not complete within 30 virtual seconds.");
        return await call;
    }

    /// <summary>
    /// Starts one of <paramref name="server"/>'s message handlers on its node's loop, as the message's
    /// arrival would (called from the driver thread, its awaits would resume off the loop), and runs
    /// the cube until it answers.
    /// </summary>
    public Task<T> Run<T>(KeyValueService server, Func<KeyValueService, Task<T>> handler) => Run(server.HandleOnLoopAsync(handler));

    /// <summary>Asks each of <paramref name="replicas"/> to promise <paramref name="prepare"/>'s ballot from <paramref name="from"/>, as a newer primary played by the test would; true when every one did.</summary>
    public async Task<bool> PromisedAtAsync(Coordinate[] replicas, Messages.Prepare prepare, Coordinate from)
    {
        var all = true;
        foreach (var replica in replicas)
        {
            all &= (await Run(this[replica], s => s.OnPrepareAsync(prepare, from))).Promised;
        }

        return all;
    }

    /// <summary>Forgets a server's replicas, as if its disk were replaced; call while it is dead.</summary>
    public void Wipe(Coordinate server) => _disks.Remove(server);

    private static StoreCube Start(Func<Dictionary<Coordinate, MemoryKeyValueStorage>, ITestCube> start, KeyValueServiceOptions? options)
    {
        var disks = new Dictionary<Coordinate, MemoryKeyValueStorage>();
        var store = new StoreCube(start(disks), disks);
        store.PassStartLease(options);
        return store;
    }

    internal static void Register(Node node, Dictionary<Coordinate, MemoryKeyValueStorage> disks, KeyValueServiceOptions? options)
    {
        if (!disks.TryGetValue(node.Self, out var disk))
        {
            disk = new MemoryKeyValueStorage();
            disks.Add(node.Self, disk);
        }

        node.Register(new KeyValueService(disk, options));
    }
}
