using CamCube;
using CamCube.Messaging;

namespace ReplicatedCounter;

/// <summary>
/// Named counters, each kept at the root of its name's key and copied to the next servers of
/// <c>GetServersForKey</c> (camcubeos 3.2): when the root fails, the first copy's server becomes
/// the root and the counter continues from its copy.
/// </summary>
public sealed class CounterService : MessagingServiceBase
{
    /// <summary>The service id, the same on every node.</summary>
    public const ushort Id = 0x0043;

    /// <summary>How many servers after the root keep a copy of each counter.</summary>
    public const int CopiesMax = 2;

    private static readonly TimeSpan s_timeout = TimeSpan.FromSeconds(5);
    private readonly Dictionary<string, CounterValue> _counters = new(StringComparer.Ordinal);

    /// <summary>Creates the service and its handlers: increments and reads at the root, copies beside it.</summary>
    public CounterService()
        : base(Id, "counter")
    {
        Handle<Increment, CounterValue>(1, (increment, _) => Add(increment.Name, increment.By));
        Handle<Read, CounterValue>(2, (read, _) => Held(read.Name));
        Handle<CounterValue>(3, (copy, _) => Keep(copy));
    }

    /// <summary>Adds <paramref name="by"/> to the counter <paramref name="name"/> at its root. Any thread may call it.</summary>
    public Task<CounterValue> IncrementAsync(string name, long by = 1) =>
        InvokeAsync(() => RequestAsync<Increment, CounterValue>(Key.FromString(name), new Increment { Name = name, By = by }, s_timeout));

    /// <summary>Reads the counter <paramref name="name"/> at its root. Any thread may call it.</summary>
    public Task<CounterValue> ReadAsync(string name) =>
        InvokeAsync(() => RequestAsync<Read, CounterValue>(Key.FromString(name), new Read { Name = name }, s_timeout));

    /// <summary>Gets the value this server holds for <paramref name="name"/> (as root or copy), or null; on the node's loop, as a test cube's driver is.</summary>
    public long? ValueHere(string name) => _counters.TryGetValue(name, out var counter) ? counter.Value : null;

    /// <summary>A server came back (with fresh state): give it the counters it is the root of again.</summary>
    protected override void OnServerReachabilityChangedCore(Coordinate server, bool reachable)
    {
        if (!reachable)
        {
            return;
        }

        foreach (var counter in _counters.Values)
        {
            if (Node.GetRoot(Node.KeySpace.KeyCoordinateOf(Key.FromString(counter.Name))) == server)
            {
                SendToServer(server, counter);
            }
        }
    }

    private CounterValue Add(string name, long by)
    {
        var held = Held(name);
        var counter = new CounterValue { Name = name, Value = held.Value + by, Version = held.Version + 1 };
        _counters[name] = counter;
        CopyToNextServers(counter);
        return counter;
    }

    private CounterValue Held(string name) => _counters.TryGetValue(name, out var counter) ? counter : new CounterValue { Name = name };

    private void Keep(CounterValue copy)
    {
        if (!_counters.TryGetValue(copy.Name, out var held) || held.Version < copy.Version)
        {
            _counters[copy.Name] = copy;
        }
    }

    /// <summary>Sends the counter to the servers after this root in its key's walk: they take over, in order, when it fails.</summary>
    private void CopyToNextServers(CounterValue counter)
    {
        Span<Coordinate> servers = stackalloc Coordinate[1 + CopiesMax];
        var count = Node.GetServersForKey(Node.KeySpace.KeyCoordinateOf(Key.FromString(counter.Name)), servers);
        for (var i = 0; i < count; i++)
        {
            if (servers[i] != Node.Self)
            {
                SendToServer(servers[i], counter);
            }
        }
    }
}
