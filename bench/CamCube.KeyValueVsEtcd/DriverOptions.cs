using System.Globalization;
using System.Net;

namespace CamCube.KeyValueVsEtcd;

/// <summary>The driver's settings, from its <c>--name value</c> options.</summary>
internal sealed record DriverOptions
{
    /// <summary>The store's durability when the cube runs with its defaults (disk backend, r = 3).</summary>
    public const string StoreDurabilityDefault =
        "CamCube store: r = 3; a write is acknowledged when every live replica committed it to SQLite (WAL, synchronous = FULL: fsync per commit)";

    /// <summary>Gets the targets to load, in table order (the first is the baseline): <c>etcd</c>, <c>store</c> (a cube of processes through the memcached front-ends), <c>inproc</c> (a cube inside the driver through <c>IKeyValueStore</c>, the store's default settings), <c>inproc-best-effort</c> and <c>inproc-reliable</c> (the same with the store's messages best-effort or on the reliable transport).</summary>
    public IReadOnlyList<string> Targets { get; init; } = ["etcd", "store"];

    /// <summary>Gets the value sizes in bytes.</summary>
    public IReadOnlyList<int> ValueSizes { get; init; } = [128, 4096];

    /// <summary>Gets the concurrencies (workers with one request outstanding each).</summary>
    public IReadOnlyList<int> Concurrencies { get; init; } = [1, 16, 64];

    /// <summary>Gets the most operations per cell.</summary>
    public int OperationsMax { get; init; } = 4000;

    /// <summary>Gets the longest a cell runs.</summary>
    public TimeSpan CellDuration { get; init; } = TimeSpan.FromSeconds(8);

    /// <summary>Gets the keys each worker cycles through.</summary>
    public int KeysPerWorker { get; init; } = 16;

    /// <summary>Gets the etcd binary.</summary>
    public string EtcdExecutable { get; init; } = "etcd";

    /// <summary>Gets the first etcd member's client port (peer ports are 10 above the client ports).</summary>
    public int EtcdPortBase { get; init; } = 23790;

    /// <summary>Gets the store's memcached front-ends, when the cube runs already.</summary>
    public IReadOnlyList<IPEndPoint> StoreFrontEnds { get; init; } = [];

    /// <summary>Gets the CLI (camcube.dll) that starts a cube for the store, or null to use <see cref="StoreFrontEnds"/>.</summary>
    public string? CubeCli { get; init; }

    /// <summary>Gets the shape of the cube the driver starts.</summary>
    public string CubeShape { get; init; } = "3x3x3";

    /// <summary>Gets the UDP base port of the cube the driver starts.</summary>
    public int CubePortBase { get; init; } = 25300;

    /// <summary>Gets the <c>cube up</c> option that sets the store front-ends' first port.</summary>
    public string StorePortOption { get; init; } = "--kv-port";

    /// <summary>Gets the first store front-end's port on the cube the driver starts (node i: this + i).</summary>
    public int StorePortBase { get; init; } = 25500;

    /// <summary>Gets further <c>cube up</c> arguments (by default the cache's front-end is off: it is not compared here).</summary>
    public IReadOnlyList<string> CubeArguments { get; init; } = ["--no-memcached"];

    /// <summary>Gets the store's durability as the result sheet states it.</summary>
    public string StoreDurability { get; init; } = StoreDurabilityDefault;

    /// <summary>
    /// Gets how long each target runs uncounted put, get and CAS at the highest concurrency before
    /// the first counted cell (zero: only the preload and one short warm-up of reads and CAS), so a
    /// cube of 27 just-started processes is past their tiered compilation when the cells begin.
    /// </summary>
    public TimeSpan WarmUp { get; init; }

    /// <summary>
    /// Gets how many commit threads the nodes of an in-process target share
    /// (<see cref="CamCube.Services.KeyValue.KeyValueCommitPool"/>; 0: a thread per node).
    /// </summary>
    public int InProcessCommitThreads { get; init; } = 8;

    /// <summary>Gets the longest the whole run may take before it is cancelled (and everything it started stopped).</summary>
    public TimeSpan RunDurationMax { get; init; } = TimeSpan.FromMinutes(30);

    /// <summary>The fast self-check: etcd only, one small size, concurrency 1 and 4, a few operations per cell.</summary>
    public static DriverOptions Smoke(DriverArguments arguments) => new()
    {
        Targets = ["etcd"],
        EtcdExecutable = arguments.Text("etcd") ?? "etcd",
        EtcdPortBase = arguments.Int("etcd-port-base", 23790, min: 1024),
        ValueSizes = [128],
        Concurrencies = [1, 4],
        OperationsMax = 40,
        CellDuration = TimeSpan.FromSeconds(5),
        KeysPerWorker = 4,
        RunDurationMax = TimeSpan.FromMinutes(2),
    };

    /// <summary>Reads the options of <c>run</c>.</summary>
    /// <param name="arguments">The parsed arguments.</param>
    /// <returns>The options.</returns>
    /// <exception cref="FormatException">An option's value is not valid; the message names it.</exception>
    public static DriverOptions Parse(DriverArguments arguments)
    {
        var targets = List(arguments, "targets", "etcd,store", text => text is "etcd" or "store" || InProcessStoreCube.OptionsOf(text) is not null ? text : throw new FormatException($"--targets: unknown target '{text}' (etcd, store, inproc, inproc-best-effort, inproc-reliable)"));
        var frontEnds = List(arguments, "store-frontends", "", ParseEndPoint);
        var cli = arguments.Text("cube-cli");
        if (targets.Contains("store") && frontEnds.Count == 0 == (cli is null))
        {
            throw new FormatException("--targets includes store: give either --cube-cli path/to/camcube.dll (the driver starts a cube) or the running store's front-ends, --store-frontends 127.0.0.1:11311,...");
        }

        return new DriverOptions
        {
            Targets = targets,
            ValueSizes = List(arguments, "sizes", "128,4096", text => Positive("sizes", text)),
            Concurrencies = List(arguments, "concurrency", "1,16,64", text => Positive("concurrency", text)),
            OperationsMax = arguments.Int("ops", 4000),
            CellDuration = TimeSpan.FromSeconds(arguments.Int("seconds", 8)),
            KeysPerWorker = arguments.Int("keys-per-worker", 16),
            WarmUp = TimeSpan.FromSeconds(arguments.Int("warm-up-seconds", 20, min: 0)),
            EtcdExecutable = arguments.Text("etcd") ?? "etcd",
            EtcdPortBase = arguments.Int("etcd-port-base", 23790, min: 1024),
            StoreFrontEnds = frontEnds,
            CubeCli = cli,
            CubeShape = arguments.Text("cube-shape") ?? "3x3x3",
            CubePortBase = arguments.Int("cube-port-base", 25300, min: 1024),
            StorePortOption = arguments.Text("store-port-option") ?? "--kv-port",
            StorePortBase = arguments.Int("store-port-base", 25500, min: 1024),
            CubeArguments = (arguments.Text("cube-args") ?? "--no-memcached").Split(' ', StringSplitOptions.RemoveEmptyEntries),
            StoreDurability = arguments.Text("store-durability") ?? StoreDurabilityDefault,
            InProcessCommitThreads = arguments.Int("inproc-commit-threads", 8, min: 0),
            RunDurationMax = TimeSpan.FromMinutes(arguments.Int("minutes-max", 30)),
        };
    }

    private static List<T> List<T>(DriverArguments arguments, string name, string defaultValue, Func<string, T> parse) =>
        [.. (arguments.Text(name) ?? defaultValue).Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries).Select(parse)];

    private static int Positive(string name, string text) =>
        int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var value) && value > 0
            ? value
            : throw new FormatException($"--{name}: '{text}' is not a positive whole number");

    private static IPEndPoint ParseEndPoint(string text) =>
        IPEndPoint.TryParse(text, out var endPoint) && IPAddress.IsLoopback(endPoint.Address) && endPoint.Port > 0
            ? endPoint
            : throw new FormatException($"--store-frontends: '{text}' is not a loopback address:port");
}
