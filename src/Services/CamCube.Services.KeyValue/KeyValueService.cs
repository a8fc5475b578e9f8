using CamCube.Messaging;
using CamCube.Services.KeyValue.Messages;
using CamCube.Services.KeyValue.Replication;
using CamCube.Services.KeyValue.Storage;

namespace CamCube.Services.KeyValue;

/// <summary>
/// The replicated key-value store of camcubeos 5.2 on one node: each key lives on the r servers of
/// <c>GetServersForKey</c>; the first of them, the key's root, is its primary. The primary decides
/// conditional writes, gives versions, and acknowledges a write once every live replica kept it.
/// When a primary fails, the next server takes the key over at once under a higher ballot, which
/// fences the old primary out; a server that comes back catches up on what it missed, and copies
/// of an unreachable server's keys are restored after t (<see cref="KeyValueServiceOptions.ReReplicationDelay"/>).
/// </summary>
/// <remarks>
/// The public methods may be called from any thread (they run on the node's loop). The storage is
/// the caller's to dispose after the node stops. docs/key-value-store.md states what holds under
/// failures and partitions.
/// </remarks>
public sealed partial class KeyValueService : MessagingServiceBase, IKeyValueStore, IOwnershipObserver
{
    /// <summary>The service id, the same on every node.</summary>
    public const ushort Id = 0x0030;

    /// <summary>Bytes a value's message needs beside the value (envelope, key, versions, protobuf tags).</summary>
    private const int MessageOverheadBytes = 96;

    private readonly KeyValueServiceOptions _options;
    private readonly IKeyValueStorage _storage;
    private int _valueBytesMax;

    /// <summary>Creates the store's service on <paramref name="storage"/>.</summary>
    /// <param name="storage">Where this server keeps its replicas (memory, or SQLite on disk); it may hold replicas from an earlier life.</param>
    /// <param name="options">Settings; <see cref="KeyValueServiceOptions.Default"/> if null.</param>
    /// <exception cref="ArgumentOutOfRangeException">A setting is out of range.</exception>
    public KeyValueService(IKeyValueStorage storage, KeyValueServiceOptions? options = null)
        : base(Id, "kv", new MessagingOptions { Delivery = (options ?? KeyValueServiceOptions.Default).Delivery })
    {
        _storage = storage ?? throw new ArgumentNullException(nameof(storage));
        _options = options ?? KeyValueServiceOptions.Default;
        _options.Validate();
        _valueBytesMax = _options.ValueBytesMax;
        HandleAsynchronously<ClientRequest, ClientReply>(KeyValueMessageType.ClientRequest, TryServeUnderLease, (request, context) => ServeAsync(request, context.Source));
        HandleAsynchronously<Prepare, Promise>(KeyValueMessageType.Prepare, (prepare, context) => OnPrepareAsync(prepare, context.Source));
        HandleAsynchronously<Accept, Accepted>(KeyValueMessageType.Accept, (accept, context) => OnAcceptAsync(accept, context.Source));
        HandleAsynchronously<AcceptBatch, AcceptedBatch>(KeyValueMessageType.AcceptBatch, (batch, context) => OnAcceptBatchAsync(batch, context.Source));
        HandleAsynchronously<Purge, Purged>(KeyValueMessageType.Purge, (purge, _) => OnPurgeAsync(purge));
        HandleAsynchronously<Offer, Want>(KeyValueMessageType.Offer, (offer, _) => OnOfferAsync(offer));
        HandleAsynchronously<Transfer, TransferAck>(KeyValueMessageType.Transfer, (transfer, _) => OnTransferAsync(transfer));
        Handle<DropLease, LeaseDropped>(KeyValueMessageType.DropLease, (drop, _) => OnDropLease(drop));
        Handle<RenewLeases, LeasesRenewed>(KeyValueMessageType.RenewLeases, (renew, context) => OnRenewLeases(renew, context.Source));
    }

    /// <summary>Gets the settings.</summary>
    public KeyValueServiceOptions Options => _options;

    /// <summary>Gets the largest value this store takes, in bytes: the configured limit, lowered to what one packet of the node carries unless the store is on the reliable transport.</summary>
    public int ValueBytesMax => Volatile.Read(ref _valueBytesMax);

    /// <summary>Gets what this server's store did; read it on the node's loop (a test cube's driver thread).</summary>
    public KeyValueStatistics Statistics { get; } = new();

    /// <summary>Gets the storage this server keeps its replicas in.</summary>
    public IKeyValueStorage Storage => _storage;

    /// <inheritdoc/>
    public override void OnRegistered(INodeContext node)
    {
        ArgumentNullException.ThrowIfNull(node);
        base.OnRegistered(node);
        var packet = node.CreatePacket();
        var capacity = _options.Delivery == MessageDelivery.Reliable ? int.MaxValue : packet.PayloadCapacity - MessageOverheadBytes;
        _acceptBytesMax = packet.PayloadCapacity;
        packet.Release();
        Volatile.Write(ref _valueBytesMax, Math.Max(0, Math.Min(_options.ValueBytesMax, capacity)));
        StartLeaseClock();
        DrawFirstWriteBallot(node);
        StartFrontEndLeases();
        _committer = CreateCommitter(node);
        LoadPromises();
        StartWatching();
        SchedulePurgesOfStoredTombstones();
    }

    /// <summary>
    /// Starts <paramref name="handler"/> (one of this server's message handlers, such as
    /// <see cref="OnPrepareAsync"/>) on the node's loop, as a message's arrival would, so its awaits
    /// resume there: for tests that play another server from the cube's driver thread.
    /// </summary>
    internal Task<T> HandleOnLoopAsync<T>(Func<KeyValueService, Task<T>> handler) => InvokeAsync(() => handler(this));

    /// <summary>Where this server commits (<see cref="KeyValueServiceOptions.Commits"/> and <see cref="KeyValueServiceOptions.CommitPool"/>).</summary>
    private Committer CreateCommitter(INodeContext node)
    {
        if (_options.CommitPool is { } pool)
        {
            return new PooledCommitter(_storage, pool, _options.CommitQueueWritesMax, node.Self.ToString(), Statistics);
        }

        var onThread = _options.Commits == CommitMode.OnCommitThread || (_options.Commits == CommitMode.Automatic && _storage.IsDurable);
        return onThread
            ? new ThreadCommitter(_storage, _options.CommitQueueWritesMax, node.Self.ToString(), Statistics, _options.Commits == CommitMode.Automatic ? node : null)
            : new LoopCommitter(_storage, node, Statistics);
    }

    /// <inheritdoc/>
    public override void OnDeregistered()
    {
        // The writes already queued are committed; their callers hear of it (or of the stop) through their tasks.
        _committer?.Dispose();
        _purgeTimer?.Dispose();
        StopRenewals();
        base.OnDeregistered();
    }

    /// <inheritdoc/>
    public Task<VersionedValue?> GetAsync(Key key, CancellationToken cancellationToken = default) => StartGetAsync(key, cancellationToken);

    /// <inheritdoc/>
    public Task<WriteOutcome> PutAsync(Key key, ReadOnlyMemory<byte> value, WriteCondition condition = default, CancellationToken cancellationToken = default)
    {
        if (value.Length > ValueBytesMax)
        {
            throw new ArgumentException($"The value is {value.Length} bytes; this store takes at most {ValueBytesMax} bytes per value.", nameof(value));
        }

        return WriteAsync(new ClientRequest { Key = KeyBytes(key), Operation = KeyValueOperation.Put, Value = value.ToArray() }, condition, cancellationToken);
    }

    /// <inheritdoc/>
    public Task<WriteOutcome> DeleteAsync(Key key, WriteCondition condition = default, CancellationToken cancellationToken = default) =>
        WriteAsync(new ClientRequest { Key = KeyBytes(key), Operation = KeyValueOperation.Delete }, condition, cancellationToken);

    internal static byte[] KeyBytes(Key key)
    {
        var bytes = new byte[Key.SizeBytes];
        key.WriteTo(bytes);
        return bytes;
    }

    private Task<WriteOutcome> WriteAsync(ClientRequest request, WriteCondition condition, CancellationToken cancellationToken)
    {
        request.Condition = condition.Kind;
        request.ConditionVersion = condition.Version;
        return CallAsync(request, static reply => new WriteOutcome(reply.WriteStatus, reply.Version), cancellationToken);
    }
}
