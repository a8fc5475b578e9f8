using System.Buffers;
using CamCube.Memcached;

namespace CamCube.Services.KeyValue.FrontEnd;

/// <summary>
/// What the memcached commands do to the store (MemcachedItemFormat.md): set is an unconditional
/// put, add a put <see cref="WriteCondition.IfAbsent"/>, cas a put <see cref="WriteCondition.IfVersion"/>
/// of the client's cas unique (the version a gets returned), delete a delete; replace, append,
/// prepend, incr, decr, touch and gat read the item and write it back on the version read, again
/// while it changes under them. A read does not see an item that expired or was flushed.
/// Each answer continues off the node's loop, so replies are never written there: a get's or a set's
/// on the connection's receiving thread when the store reads and writes into the connection's reusable
/// requests (<see cref="StartRead"/>, <see cref="StartSet"/>), every other on the thread pool.
/// </summary>
internal sealed partial class KeyValueCommands
{
    private readonly IKeyValueStore _store;
    private readonly KeyValueFrontEndOptions _options;
    private readonly TimeProvider _time;
    private readonly FlushStamp _flush;
    private readonly IReusableGets? _reusableGets;
    private readonly IReusableSets? _reusableSets;

    /// <summary>Creates the commands over a store.</summary>
    public KeyValueCommands(IKeyValueStore store, KeyValueFrontEndOptions options)
    {
        _store = store;
        _options = options;
        _time = options.Connections.TimeProvider;
        _flush = new FlushStamp(store, _time, options.FlushCheckMilliseconds);
        _reusableGets = store as IReusableGets;
        _reusableSets = store as IReusableSets;
    }

    /// <summary>Gets whether the store reads into a connection's reusable reads (<see cref="StartRead"/>); else gets go through <see cref="GetAsync"/>.</summary>
    public bool ReadsReusably => _reusableGets is not null;

    /// <summary>Gets what the clients asked.</summary>
    public KeyValueFrontEndStatistics Statistics { get; } = new();

    /// <summary>Gets whether the store runs a connection's reusable sets (<see cref="StartSet"/>); else sets go through <see cref="StoreAsync"/>.</summary>
    public bool SetsReusably => _reusableSets is not null;

    /// <summary>The store's key of a memcached key: the SHA-1 of its bytes, as the cache's memId (camcubeos 5.2: memId = objId).</summary>
    public static Key KeyOf(ReadOnlySpan<byte> key) => Key.Hash(key);

    /// <summary>Runs a storage command; <paramref name="data"/> must stay valid until the task completes.</summary>
    public async Task<KeyValueReply> StoreAsync(Key key, MemcachedStorageCommand command, ReadOnlySequence<byte> data)
    {
        Statistics.CountSet();
        try
        {
            var now = _time.GetUtcNow();
            var expiresAt = MemcachedItem.ExpiresAt(command.ExpirationSeconds, now);
            switch (command.Operation)
            {
                case MemcachedStorageOperation.Set:
                    await PutAsync(key, MemcachedItem.Encode(command.Flags, expiresAt, WrittenAt(now), data), WriteCondition.Always).ConfigureAwait(false);
                    return KeyValueReply.Stored;
                case MemcachedStorageOperation.Add:
                    return await AddAsync(key, MemcachedItem.Encode(command.Flags, expiresAt, WrittenAt(now), data)).ConfigureAwait(false);
                case MemcachedStorageOperation.Cas:
                    return await CompareAndSwapAsync(key, command.Cas, MemcachedItem.Encode(command.Flags, expiresAt, WrittenAt(now), data)).ConfigureAwait(false);
                default:
                    var change = new Change(command.Operation, command.Flags, expiresAt, data.ToArray());
                    return await UpdateAsync(key, change, KeyValueReply.NotStored).ConfigureAwait(false);
            }
        }
        catch (KeyValueStoreException ex)
        {
            return KeyValueReply.StoreFailed(ex.Reason);
        }
        catch (ArgumentException)
        {
            // The value is over the store's own size limit.
            return KeyValueReply.TooLarge;
        }
    }

    /// <summary>Starts a set (an unconditional put) with a connection's reusable write; one that cannot start ends at once with its error.</summary>
    public void StartSet(StoreWrite write, Key key, in MemcachedStorageCommand command, in ReadOnlySequence<byte> data)
    {
        Statistics.CountSet();
        var now = _time.GetUtcNow();
        var item = MemcachedItem.Encode(command.Flags, MemcachedItem.ExpiresAt(command.ExpirationSeconds, now), WrittenAt(now), data);
        write.Prepare(key, item);
        if (item.Length > _reusableSets!.ValueBytesMax)
        {
            write.Refuse(KeyValueReply.TooLarge);
        }
        else if (!_reusableSets.TryStartSet(write.Set))
        {
            write.Failed(new KeyValueStoreException(KeyValueFailure.Unavailable, "The set could not start: the store is not on a running node, or its node's queue is full."));
        }
    }

    /// <summary>Runs delete: a delete on the version read, so an item that expired or was flushed but is still stored answers NOT_FOUND as memcached does; again while another write comes between.</summary>
    public async Task<KeyValueReply> DeleteAsync(Key key)
    {
        try
        {
            for (var attempt = 0; attempt < _options.ConditionalRetriesMax; attempt++)
            {
                var found = await ReadAsync(key).ConfigureAwait(false);
                if (!found.IsLive)
                {
                    return KeyValueReply.NotFound;
                }

                var outcome = await _store.DeleteAsync(key, WriteCondition.IfVersion(found.Version)).ConfigureAwait(ConfigureAwaitOptions.ForceYielding);
                if (outcome.Status != WriteStatus.ConditionFailed)
                {
                    return outcome.Succeeded ? KeyValueReply.Deleted : KeyValueReply.NotFound;
                }
            }

            return KeyValueReply.Busy;
        }
        catch (KeyValueStoreException ex)
        {
            return KeyValueReply.StoreFailed(ex.Reason);
        }
    }

    /// <summary>Runs incr or decr.</summary>
    public Task<KeyValueReply> IncrementAsync(Key key, ulong delta, bool increment) =>
        GuardAsync(UpdateAsync(key, Change.Counter(increment, delta), KeyValueReply.NotFound));

    /// <summary>Runs touch.</summary>
    public Task<KeyValueReply> TouchAsync(Key key, int expirationSeconds)
    {
        Statistics.CountTouch();
        return GuardAsync(UpdateAsync(key, Change.Expiry(get: false, MemcachedItem.ExpiresAt(expirationSeconds, _time.GetUtcNow())), KeyValueReply.NotFound));
    }

    /// <summary>Runs one key of get or gets; with <paramref name="expirationSeconds"/>, of gat or gats.</summary>
    public async Task<KeyValueReply> GetAsync(Key key, int? expirationSeconds)
    {
        try
        {
            var reply = expirationSeconds is { } seconds
                ? await UpdateAsync(key, Change.Expiry(get: true, MemcachedItem.ExpiresAt(seconds, _time.GetUtcNow())), KeyValueReply.Miss).ConfigureAwait(false)
                : await ReadAsync(key).ConfigureAwait(false) is { IsLive: true } found ? new KeyValueReply(KeyValueReplyKind.Value, Item: found.Item, Version: found.Version) : KeyValueReply.Miss;
            Statistics.CountGet(hit: reply.Kind == KeyValueReplyKind.Value);
            return reply;
        }
        catch (KeyValueStoreException ex)
        {
            return KeyValueReply.StoreFailed(ex.Reason, read: expirationSeconds is null);
        }
    }

    /// <summary>Starts one key of get or gets with a connection's reusable read; one that cannot start fails at once.</summary>
    public void StartRead(StoreRead read, Key key)
    {
        read.Prepare(key);
        if (!_reusableGets!.TryStartGet(read.Get))
        {
            read.Failed(new KeyValueStoreException(KeyValueFailure.Unavailable, "The get could not start: the store is not on a running node, or its node's queue is full."));
        }
    }

    /// <summary>Gets the read of the last flush_all that the reads started now must await before <see cref="TryReadItem"/>, or null when the one known here is fresh.</summary>
    public Task<FlushMark>? FlushToAwait() => _flush.ReadToAwait();

    /// <summary>
    /// The answer to one key of a get that <paramref name="read"/> ended: true with the client's bytes and
    /// flags when the item is there for a client (not expired, not flushed), false on a miss or with the
    /// error line of a failure. Counts the key as a get.
    /// </summary>
    public bool TryReadItem(StoreRead read, out ReadOnlySpan<byte> data, out uint flags, out byte[]? errorLine)
    {
        data = default;
        flags = 0;
        errorLine = null;
        if (read.Status == StoreReadStatus.Failed)
        {
            errorLine = KeyValueReply.StoreFailed(read.Error is KeyValueStoreException failure ? failure.Reason : KeyValueFailure.Shutdown, read: true).ErrorLine;
            return false;
        }

        var hit = false;
        if (read.Status == StoreReadStatus.Found)
        {
            var stored = read.ResponseValue;
            var item = MemcachedItem.DecodeHeader(stored, out var headerBytes);
            hit = !item.IsGone(_time.GetUtcNow(), _flush.LastKnown);
            data = stored[headerBytes..];
            flags = item.Flags;
        }

        Statistics.CountGet(hit);
        return hit;
    }

    /// <summary>Runs flush_all.</summary>
    public async Task<KeyValueReply> FlushAllAsync(int delaySeconds)
    {
        Statistics.CountFlush();
        try
        {
            await _flush.FlushAsync(delaySeconds).ConfigureAwait(false);
            return KeyValueReply.Ok;
        }
        catch (KeyValueStoreException ex)
        {
            return KeyValueReply.StoreFailed(ex.Reason);
        }
    }

    /// <summary>
    /// The written time of an item stored now: after the last flush_all known here when that has
    /// taken effect, so an item written after a flush is never taken for one written before it
    /// (clocks that have not moved on since, a coarse or a test clock).
    /// </summary>
    private long WrittenAt(DateTimeOffset now)
    {
        var flush = _flush.LastKnown;
        return flush.EffectiveAtTicks != 0 && flush.EffectiveAtTicks <= now.UtcTicks ? Math.Max(now.UtcTicks, flush.CutoffTicks + 1) : now.UtcTicks;
    }

    private static async Task<KeyValueReply> GuardAsync(Task<KeyValueReply> command)
    {
        try
        {
            return await command.ConfigureAwait(false);
        }
        catch (KeyValueStoreException ex)
        {
            return KeyValueReply.StoreFailed(ex.Reason);
        }
        catch (ArgumentException)
        {
            return KeyValueReply.TooLarge;
        }
    }

    private async Task<WriteOutcome> PutAsync(Key key, byte[] stored, WriteCondition condition) =>
        await _store.PutAsync(key, stored, condition).ConfigureAwait(ConfigureAwaitOptions.ForceYielding);

    /// <summary>add: a put if the key holds nothing; on an item that is gone (expired, flushed) but still stored, a put on its version.</summary>
    private async Task<KeyValueReply> AddAsync(Key key, byte[] stored)
    {
        var condition = WriteCondition.IfAbsent;
        for (var attempt = 0; attempt < _options.ConditionalRetriesMax; attempt++)
        {
            if ((await PutAsync(key, stored, condition).ConfigureAwait(false)).Succeeded)
            {
                return KeyValueReply.Stored;
            }

            var found = await ReadAsync(key).ConfigureAwait(false);
            if (found.IsLive)
            {
                return KeyValueReply.NotStored;
            }

            condition = found.Version == 0 ? WriteCondition.IfAbsent : WriteCondition.IfVersion(found.Version);
        }

        return KeyValueReply.Busy;
    }

    /// <summary>
    /// cas: a put on the client's cas unique, after a read that finds the item live at that version,
    /// so an item that expired or was flushed but is still stored answers NOT_FOUND as memcached
    /// does; a unique that no version can be (0, or over 2^63 - 1) never matches.
    /// </summary>
    private async Task<KeyValueReply> CompareAndSwapAsync(Key key, ulong unique, byte[] stored)
    {
        var found = await ReadAsync(key).ConfigureAwait(false);
        if (!found.IsLive)
        {
            return KeyValueReply.NotFound;
        }

        if (unique is 0 or > long.MaxValue || found.Version != (long)unique)
        {
            return KeyValueReply.Exists;
        }

        var outcome = await PutAsync(key, stored, WriteCondition.IfVersion((long)unique)).ConfigureAwait(false);
        return outcome.Status switch
        {
            WriteStatus.Written => KeyValueReply.Stored,
            WriteStatus.NotFound => KeyValueReply.NotFound,
            _ => KeyValueReply.Exists,
        };
    }

    /// <summary>
    /// Reads a key's item with whether a client may see it (not expired, not flushed). The last
    /// flush_all is asked for at the same time as the item, not after it, so a read that waits for
    /// both still answers within one store call's time (KeyValueServiceOptions.RequestTimeout).
    /// </summary>
    private async Task<Found> ReadAsync(Key key)
    {
        // A ValueTask over a finished value or the stamp's one shared read: awaited once below, or never on a miss.
        var flushing = _flush.CurrentAsync();
        var stored = await _store.GetAsync(key).ConfigureAwait(ConfigureAwaitOptions.ForceYielding);
        if (stored is null)
        {
            return default;
        }

        var item = MemcachedItem.Decode(stored.Value);
        var flush = await flushing.ConfigureAwait(false);
        return new Found(item, stored.Version, !item.IsGone(_time.GetUtcNow(), flush));
    }

    /// <summary>A key's item as read: its version (0 when the key holds nothing) and whether a client may see it.</summary>
    private readonly record struct Found(MemcachedItem Item, long Version, bool IsLive);
}
