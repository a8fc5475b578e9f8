using CamCube.Messaging;
using CamCube.Services.KeyValue;
using CamCube.Services.KeyValue.Storage;
using CamCube.Testing;

namespace CamCube.KeyValueVsEtcd;

/// <summary>
/// The store on a cube of nodes inside the driver's process (<see cref="RealTimeCube"/>: in-memory
/// links, one event loop for every node), each node with its own SQLite database in a temporary
/// directory; the driver calls the nodes' <see cref="IKeyValueStore"/> directly. No UDP, no
/// encryption, no processes: the store's own cost, beside the cube of processes.
/// </summary>
internal sealed class InProcessStoreCube : IAsyncDisposable
{
    private readonly RealTimeCube _cube;
    private readonly List<SqliteKeyValueStorage> _storages;
    private readonly string _directory;
    private readonly KeyValueCommitPool? _commitPool;

    private InProcessStoreCube(RealTimeCube cube, KeyValueCommitPool? commitPool, List<SqliteKeyValueStorage> storages, string directory, IReadOnlyList<IKeyValueStore> stores)
    {
        _cube = cube;
        _commitPool = commitPool;
        _storages = storages;
        _directory = directory;
        Stores = stores;
    }

    /// <summary>Gets how the in-process store makes an acknowledged write durable.</summary>
    public static string Durability =>
        "CamCube store in the driver's process: r = 3; acknowledged when every live replica committed it to its SQLite database (WAL, synchronous = FULL)";

    /// <summary>Gets each node's store, node 0's first.</summary>
    public IReadOnlyList<IKeyValueStore> Stores { get; }

    /// <summary>The store's settings of an in-process target: <c>inproc</c> the defaults, <c>inproc-best-effort</c> and <c>inproc-reliable</c> the delivery they name; null for any other name.</summary>
    /// <param name="target">The target's name.</param>
    /// <returns>The settings, or null.</returns>
    public static KeyValueServiceOptions? OptionsOf(string target) => target switch
    {
        "inproc" => KeyValueServiceOptions.Default,
        "inproc-best-effort" => KeyValueServiceOptions.Default with { Delivery = MessageDelivery.BestEffort },
        "inproc-reliable" => KeyValueServiceOptions.Default with { Delivery = MessageDelivery.Reliable },
        _ => null,
    };

    /// <summary>Starts the cube and waits until its links are up.</summary>
    /// <param name="shape">The cube's shape, e.g. 3x3x3.</param>
    /// <param name="options">The store's settings on every node.</param>
    /// <param name="commitThreads">How many commit threads the nodes share; 0: a thread per node.</param>
    /// <returns>The running cube.</returns>
    public static async Task<InProcessStoreCube> StartAsync(string shape, KeyValueServiceOptions options, int commitThreads)
    {
        var directory = Directory.CreateTempSubdirectory("camcube-kvbench-inproc-").FullName;
        var storages = new List<SqliteKeyValueStorage>();
        var services = new List<KeyValueService>();
        var commitPool = commitThreads > 0 ? new KeyValueCommitPool(commitThreads) : null;
        try
        {
            var cube = await RealTimeCube.StartAsync(TorusShape.Parse(shape), node =>
            {
                var storage = SqliteKeyValueStorage.Open(Path.Combine(directory, $"node-{services.Count}.db"));
                storages.Add(storage);
                // The nodes share one loop here: every commit off the loop, so that one node's disk write holds up no other node.
                var service = new KeyValueService(storage, options with { Commits = CommitMode.OnCommitThread, CommitPool = commitPool });
                services.Add(service);
                node.Register(service);
            }, TimeSpan.FromSeconds(60)).ConfigureAwait(false);
            return new InProcessStoreCube(cube, commitPool, storages, directory, services);
        }
        catch
        {
            commitPool?.Dispose();
            Delete(storages, directory);
            throw;
        }
    }

    /// <summary>Stops the nodes, closes the databases and deletes them.</summary>
    public ValueTask DisposeAsync()
    {
        _cube.Dispose();
        _commitPool?.Dispose();
        Delete(_storages, _directory);
        return ValueTask.CompletedTask;
    }

    private static void Delete(List<SqliteKeyValueStorage> storages, string directory)
    {
        foreach (var storage in storages)
        {
            storage.Dispose();
        }

        Directory.Delete(directory, recursive: true);
    }
}
