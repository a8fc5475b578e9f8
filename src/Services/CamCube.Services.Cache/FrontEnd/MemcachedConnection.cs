using System.Buffers;
using System.IO.Pipelines;
using CamCube.Memcached;

namespace CamCube.Services.Cache.FrontEnd;

/// <summary>
/// One client of the cache's memcached front-end: what each command does (the protocol is
/// <see cref="MemcachedTextConnection"/>'s). A command whose key is rooted here runs on this
/// thread (<see cref="CacheService.TryGetLocally"/>); others go through the node's loop in the
/// connection's own <see cref="FrontEndRequest"/>s, awaited by the protocol's loop, so neither path
/// allocates per request.
/// </summary>
internal sealed partial class MemcachedConnection : MemcachedTextConnection, ICacheValueSink
{
    private readonly CacheService _service;
    private readonly FrontEndRequest?[] _requests;
    private int _issued;
    private bool _answersAreValues;

    /// <summary>Creates a connection over a duplex pipe; <paramref name="transport"/>, if any, is disposed when it ends (a socket's stream).</summary>
    public MemcachedConnection(PipeReader reader, PipeWriter writer, IDisposable? transport, CacheService service, MemcachedFrontEndOptions options)
        : base(reader, writer, transport, options)
    {
        _service = service;
        _requests = new FrontEndRequest?[options.KeysPerGetMax + 2];
    }

    /// <inheritdoc/>
    protected override long ItemSizeMaxBytes => _service.Options.ItemSizeMaxBytes;

    /// <inheritdoc/>
    public void OnValue(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value, uint flags, ulong cas) => WriteValue(key, value, flags, cas);

    /// <inheritdoc/>
    protected override void Store(ReadOnlyMemory<byte> key, in MemcachedStorageCommand command, in ReadOnlySequence<byte> value)
    {
        var operation = Operation(command.Operation);
        if (_service.TryStoreLocally(operation, key.Span, value, command.Flags, command.ExpirationSeconds, command.Cas, out var status))
        {
            WriteStatus(status);
            return;
        }

        Issue(answersAreValues: false).Prepare(operation, key, value, command.Flags, command.ExpirationSeconds, command.Cas);
        SendIssued();
    }

    /// <inheritdoc/>
    protected override void OnValueTooLarge(ReadOnlyMemory<byte> key, MemcachedStorageOperation operation)
    {
        // As in memcached, a set too large for the cache removes the old item.
        if (operation == MemcachedStorageOperation.Set)
        {
            _ = _service.ExecuteAsync(new CacheRequest { Operation = CacheOperation.Delete, Key = key.ToArray() });
        }
    }

    /// <inheritdoc/>
    protected override void Delete(ReadOnlyMemory<byte> key)
    {
        if (_service.TryDeleteLocally(key.Span, out var status))
        {
            WriteStatus(status);
            return;
        }

        SendThroughLoop(CacheOperation.Delete, key);
    }

    /// <inheritdoc/>
    protected override void Increment(ReadOnlyMemory<byte> key, ulong delta, bool increment) =>
        SendThroughLoop(increment ? CacheOperation.Increment : CacheOperation.Decrement, key, casOrDelta: delta);

    /// <inheritdoc/>
    protected override void Touch(ReadOnlyMemory<byte> key, int expirationSeconds) => SendThroughLoop(CacheOperation.Touch, key, expirationSeconds);

    /// <inheritdoc/>
    protected override void FlushAll(int delaySeconds)
    {
        Issue(answersAreValues: false).PrepareFlush(delaySeconds);
        SendIssued();
    }

    /// <inheritdoc/>
    protected override void Get(int first, int count, int? expirationSeconds)
    {
        // Keys rooted here are answered at once, in order; from the first that is not, the rest go through the loop.
        var local = first;
        while (expirationSeconds is null && local < count && _service.TryGetLocally(Token(local), this))
        {
            local++;
        }

        if (local == count)
        {
            EndGetBatch();
            return;
        }

        var operation = expirationSeconds is null ? CacheOperation.Get : CacheOperation.GetAndTouch;
        for (var i = local; i < count; i++)
        {
            Issue(answersAreValues: true).Prepare(operation, TokenMemory(i), expirationSeconds: expirationSeconds ?? 0);
        }

        SendIssued();
    }

    /// <inheritdoc/>
    protected override void WriteStatistics()
    {
        var statistics = _service.Statistics;
        WriteStat("cmd_get"u8, (ulong)statistics.GetCommands);
        WriteStat("cmd_set"u8, (ulong)statistics.SetCommands);
        WriteStat("get_hits"u8, (ulong)statistics.GetHits);
        WriteStat("get_misses"u8, (ulong)statistics.GetMisses);
        WriteStat("secondary_hits"u8, (ulong)statistics.SecondaryHits);
        WriteStat("curr_items"u8, (ulong)statistics.CurrentItems);
        WriteStat("bytes"u8, (ulong)statistics.Bytes);
        WriteStat("evictions"u8, (ulong)statistics.Evictions);
        WriteStat("limit_maxbytes"u8, (ulong)_service.Options.MemoryLimitBytes);
        WriteStat("item_size_max"u8, (ulong)_service.Options.ItemSizeMaxBytes);
    }

    private static CacheOperation Operation(MemcachedStorageOperation operation) => operation switch
    {
        MemcachedStorageOperation.Add => CacheOperation.Add,
        MemcachedStorageOperation.Replace => CacheOperation.Replace,
        MemcachedStorageOperation.Append => CacheOperation.Append,
        MemcachedStorageOperation.Prepend => CacheOperation.Prepend,
        MemcachedStorageOperation.Cas => CacheOperation.Cas,
        _ => CacheOperation.Set,
    };

    /// <summary>Sends a command's key through the loop.</summary>
    private void SendThroughLoop(CacheOperation operation, ReadOnlyMemory<byte> key, int expirationSeconds = 0, ulong casOrDelta = 0)
    {
        Issue(answersAreValues: false).Prepare(operation, key, expirationSeconds: expirationSeconds, casOrDelta: casOrDelta);
        SendIssued();
    }

    private void WriteStatus(CacheStatus status)
    {
        switch (status)
        {
            case CacheStatus.Stored: Reply("STORED\r\n"u8); break;
            case CacheStatus.NotStored: Reply("NOT_STORED\r\n"u8); break;
            case CacheStatus.Exists: Reply("EXISTS\r\n"u8); break;
            case CacheStatus.NotFound or CacheStatus.Miss: Reply("NOT_FOUND\r\n"u8); break;
            case CacheStatus.Deleted: Reply("DELETED\r\n"u8); break;
            case CacheStatus.Touched: Reply("TOUCHED\r\n"u8); break;
            case CacheStatus.Ok: Reply("OK\r\n"u8); break;
            default: WriteError(ErrorLine(status)); break;
        }
    }

    /// <summary>The error reply of a status that is no normal answer.</summary>
    private static ReadOnlySpan<byte> ErrorLine(CacheStatus status) => status switch
    {
        CacheStatus.NonNumeric => "CLIENT_ERROR cannot increment or decrement non-numeric value\r\n"u8,
        CacheStatus.TooLarge => "SERVER_ERROR object too large for cache\r\n"u8,
        CacheStatus.OutOfMemory => "SERVER_ERROR out of memory storing object\r\n"u8,
        CacheStatus.InvalidKey => "CLIENT_ERROR bad command line format\r\n"u8,
        CacheStatus.Busy => "SERVER_ERROR busy\r\n"u8,
        _ => "SERVER_ERROR timeout\r\n"u8,
    };
}
