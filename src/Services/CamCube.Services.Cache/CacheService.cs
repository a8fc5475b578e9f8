using System.Collections.Concurrent;
using CamCube.Services.Reliable;

namespace CamCube.Services.Cache;

/// <summary>
/// The distributed cache (camcubeos 5.1, symbiotic-routing 3.3 and 7): a string key hashes to a
/// memId whose root holds the item; reads go via the closest of k secondary replicas, which answer
/// hits at once and keep copies of what the root answers; writes at the root invalidate the copies;
/// items whose root failed are flushed. <see cref="ExecuteAsync"/> may be called from any thread; a
/// front-end on the key's root executes at once (CacheService.Local).
/// </summary>
public sealed partial class CacheService : RoutedServiceBase
{
    /// <summary>The cache service's id.</summary>
    public new const ushort ServiceId = 0x0020;

    private readonly ConcurrentQueue<PendingRequest> _inbox = new();
    private readonly Dictionary<uint, PendingRequest> _pending = [];
    private readonly List<uint> _timedOut = [];
    private readonly List<PendingRequest> _moving = [];
    private readonly KeyCoordinate[] _secondaries;
    private CacheStore? _store;
    private FragmentAssembler<(Coordinate Requester, uint RequestId, CacheMessageType Type)>? _assembler;
    private static readonly Action<object?> s_drainInbox = static service => ((CacheService)service!).DrainInbox();

    /// <summary>The node, for the threads that queue requests: set while the service is registered.</summary>
    private INodeContext? _loop;
    private ITimer? _sweep;
    private int _doorbellRung;
    private int _inFlight;
    private uint _nextRequestId;

    /// <summary>Creates the service with <paramref name="options"/> (defaults if null).</summary>
    /// <param name="options">The settings; defaults if null.</param>
    /// <param name="valueSource">What this server's key-value store holds, or null: a root that misses reads it, and keeps no second copy of what it holds (CacheService.Source).</param>
    /// <exception cref="ArgumentOutOfRangeException">An option is out of range.</exception>
    public CacheService(CacheOptions? options = null, ICacheValueSource? valueSource = null)
        : base(ServiceId, "cache", new RoutingQueueOptions(Validated(options).RequestTimeout))
    {
        ValueSource = valueSource;
        Options = Validated(options);
        _secondaries = new KeyCoordinate[Options.SecondaryReplicaCount];
    }

    /// <summary>Gets the settings.</summary>
    public CacheOptions Options { get; }

    /// <summary>Gets what this server's key-value store holds, read on a miss at the root; null for none.</summary>
    public ICacheValueSource? ValueSource { get; }

    /// <summary>Gets the node's counters, readable from any thread.</summary>
    public CacheStatistics Statistics { get; } = new();

    /// <summary>Gets the node's store; use on the event loop only.</summary>
    internal CacheStore Store => _store ?? throw new InvalidOperationException("The cache service is not registered on a node.");

    /// <inheritdoc/>
    public override void OnRegistered(INodeContext node)
    {
        base.OnRegistered(node);
        _store = new CacheStore(node.TimeProvider, Options.MemoryLimitBytes, Options.ItemSizeMaxBytes);
        _self = node.Self;
        _keySpace = node.KeySpace;
        UpdateLocalPath(_store);
        _assembler = new(Options.ReassemblyBytesMax);
        InitializeCopies();

        // An earlier life of this server may have granted copies that still answer: none of its
        // writes is answered before they have run out.
        _store.NoteUnknownCopiesUntil(node.TimeProvider.GetTimestamp() + _leaseTicks);

        // A restarted node must not reuse the request ids of its previous life, which roots remember.
        _nextRequestId = (uint)node.TimeProvider.GetTimestamp();
        _roots = node.CreateKeyWatch(1);
        _hadMajority = HasMajority;
        Volatile.Write(ref _loop, node);
        _sweep = node.CreateTimer(Sweep, Options.SweepPeriod, Options.SweepPeriod);
    }

    /// <inheritdoc/>
    public override void OnDeregistered()
    {
        _everyServerReachable = false;
        Volatile.Write(ref _loop, null);
        _sweep?.Dispose();
        _keysAt.Clear();
        _keysWatched = 0;
        foreach (var pending in _pending.Values)
        {
            Finish(pending, CacheStatus.Timeout);
        }

        _pending.Clear();
        while (_inbox.TryDequeue(out var queued))
        {
            Finish(queued, CacheStatus.Timeout);
        }

        base.OnDeregistered();
    }

    /// <summary>
    /// Runs one cache operation and completes with its answer. Thread-safe: the request is queued
    /// and run on the node's event loop; the task's continuations run asynchronously.
    /// </summary>
    /// <returns>The answer; <see cref="CacheStatus.InvalidKey"/>, <see cref="CacheStatus.TooLarge"/> and <see cref="CacheStatus.Busy"/> complete at once.</returns>
    /// <exception cref="ArgumentNullException">The request is null.</exception>
    public Task<CacheResponse> ExecuteAsync(CacheRequest request)
    {
        ArgumentNullException.ThrowIfNull(request);
        var pending = new CacheTaskRequest(request);
        Execute(pending);
        return pending.Task;
    }

    /// <summary>
    /// memcached flush_all: every reachable server drops its items now, or those stored before
    /// <paramref name="delaySeconds"/> from now once that time comes. Completes with
    /// <see cref="CacheStatus.Ok"/> when every server acknowledged. Thread-safe.
    /// </summary>
    public Task<CacheResponse> FlushAllAsync(int delaySeconds = 0)
    {
        var pending = new CacheTaskRequest(delaySeconds);
        Execute(pending);
        return pending.Task;
    }

    /// <summary>
    /// Queues <paramref name="request"/> for the node's loop, or completes it at once with
    /// <see cref="CacheStatus.InvalidKey"/>, <see cref="CacheStatus.TooLarge"/> or <see cref="CacheStatus.Busy"/>.
    /// Thread-safe; allocates nothing in steady state.
    /// </summary>
    internal void Execute(PendingRequest request)
    {
        if (request.Call.Operation != 0 && !CacheKeys.IsValid(request.Call.Key.Span))
        {
            request.Complete(CacheStatus.InvalidKey);
            return;
        }

        if (request.Call.Value.Length > Options.ItemSizeMaxBytes)
        {
            request.Complete(CacheStatus.TooLarge);
            return;
        }

        if (Interlocked.Increment(ref _inFlight) > Options.PendingRequestsMax || Volatile.Read(ref _loop) is not { } loop)
        {
            Interlocked.Decrement(ref _inFlight);
            request.Complete(CacheStatus.Busy);
            return;
        }

        _inbox.Enqueue(request);

        // Onto the loop once per drain: the drain clears the flag before it empties the queue, so
        // nothing waits unseen. A refused post means the service is leaving its node, whose
        // deregistration answers what waits.
        if (Interlocked.Exchange(ref _doorbellRung, 1) == 0)
        {
            loop.TryPost(s_drainInbox, this);
        }
    }

    /// <summary>A request may wait in the routing queue as long as its requester waits for it, and no longer.</summary>
    private static CacheOptions Validated(CacheOptions? options)
    {
        options ??= new CacheOptions();
        options.Validate();
        return options;
    }

    private void DrainInbox()
    {
        Volatile.Write(ref _doorbellRung, 0);
        while (_inbox.TryDequeue(out var pending))
        {
            Start(pending);
        }
    }

    private void Start(PendingRequest pending)
    {
        pending.RequestId = ++_nextRequestId;
        var now = Node.TimeProvider.GetTimestamp();
        pending.Deadline = now + (long)(Options.RequestTimeout.TotalSeconds * Node.TimeProvider.TimestampFrequency);
        pending.RetransmitAt = now + RetransmitTicks(0);
        _pending.Add(pending.RequestId, pending);
        if (pending.Call.Operation == CacheOperation.Get)
        {
            Statistics.CountGetCommand();
            SendRequest(pending);
        }
        else if (pending.Call.Operation != 0)
        {
            if (pending.Call.Operation is >= CacheOperation.Set and <= CacheOperation.Cas)
            {
                Statistics.CountSetCommand();
            }

            pending.Destination = RootOf(pending);
            SendRequest(pending);
        }
        else
        {
            SendFlushes(pending);
        }
    }

    private void Complete(uint requestId, CacheStatus status)
    {
        if (_pending.Remove(requestId, out var pending))
        {
            Finish(pending, status);
        }
    }

    /// <summary>Answers a request; the request is the issuer's again afterwards.</summary>
    private void Finish(PendingRequest pending, CacheStatus status)
    {
        if (pending.Call.Operation == CacheOperation.Get)
        {
            Statistics.CountGet(status == CacheStatus.Hit);
        }

        Interlocked.Decrement(ref _inFlight);
        pending.Complete(status);
    }

    private void Sweep()
    {
        var now = Node.TimeProvider.GetTimestamp();
        foreach (var (id, pending) in _pending)
        {
            if (pending.Deadline <= now)
            {
                _timedOut.Add(id);
            }
            else if (pending.Destination is null && pending.Call.Operation is not (0 or CacheOperation.Get) && pending.RetransmitAt <= now)
            {
                // A write that moved while the view still named the server it left: the root now.
                pending.Destination = RootOf(pending);
                pending.RetransmitAt = now + RetransmitTicks(0);
                SendRequest(pending);
            }
            else if (pending.Call.Operation != 0 && pending.RetransmitAt <= now)
            {
                // No answer yet: the request or its answer may have been lost. Send it again with the
                // same id, to the same server for a write, which executes it once and answers a repeat from memory.
                pending.ForgetPartialResponse();
                pending.RetransmitAt = now + RetransmitTicks(++pending.Retransmissions);
                Statistics.CountRetransmission();
                SendRequest(pending);
            }
        }

        foreach (var id in _timedOut)
        {
            Complete(id, CacheStatus.Timeout);
        }

        _timedOut.Clear();
        AnswerSettledWrites(now);
        _recentWrites!.Expire(now);
        _invalidated!.Expire(now);
        PruneWatchedRoots(Store);
        _assembler!.Sweep(now - (long)(Options.RequestTimeout.TotalSeconds * Node.TimeProvider.TimestampFrequency));
        lock (Store.Gate)
        {
            Statistics.Snapshot(Store);
        }
    }
}
