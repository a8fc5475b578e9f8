using System.Buffers;
using System.IO.Pipelines;
using CamCube.Memcached;

namespace CamCube.Services.KeyValue.FrontEnd;

/// <summary>
/// One client of the store's memcached front-end: the protocol is <see cref="MemcachedTextConnection"/>'s,
/// each command a call of <see cref="KeyValueCommands"/> whose answer the protocol's loop awaits
/// before it reads the next command (a get's keys are asked for together, answered in order). A get
/// or gets of a store that reads reusably takes one of the connection's <see cref="StoreRead"/>s per
/// key, so it allocates nothing and its answer continues on the connection's receiving thread; a set
/// takes the connection's one <see cref="StoreWrite"/>, its answer continuing there too.
/// </summary>
internal sealed class KeyValueConnection : MemcachedTextConnection
{
    private readonly KeyValueCommands _commands;
    private readonly int _itemSizeMaxBytes;
    private readonly Task<KeyValueReply>[] _pending;
    private readonly StoreRead?[] _reads;
    private int _pendingCount;
    private int _readCount;
    private Task<FlushMark>? _flushing;
    private StoreWrite? _write;
    private bool _writing;
    private int _getFirst = -1;

    /// <summary>Creates a connection over a duplex pipe; <paramref name="transport"/>, if any, is disposed when it ends.</summary>
    public KeyValueConnection(PipeReader reader, PipeWriter writer, IDisposable? transport, KeyValueCommands commands, KeyValueFrontEndOptions options)
        : base(reader, writer, transport, options.Connections)
    {
        _commands = commands;
        _itemSizeMaxBytes = options.ItemSizeMaxBytes;
        _pending = new Task<KeyValueReply>[options.Connections.KeysPerGetMax + 2];
        _reads = new StoreRead?[options.Connections.KeysPerGetMax + 2];
    }

    /// <inheritdoc/>
    protected override int PendingCount => _writing ? 1 : _readCount + _pendingCount + (_flushing is null ? 0 : 1);

    /// <inheritdoc/>
    protected override long ItemSizeMaxBytes => _itemSizeMaxBytes;

    /// <inheritdoc/>
    protected override ValueTask PendingAnswer(int index) =>
        _writing ? _write!.Answered
        : index < _readCount ? _reads[index]!.Answered
        : index - _readCount < _pendingCount ? new(_pending[index - _readCount])
        : new(_flushing!);

    /// <inheritdoc/>
    protected override void Store(ReadOnlyMemory<byte> key, in MemcachedStorageCommand command, in ReadOnlySequence<byte> value)
    {
        if (command.Operation == MemcachedStorageOperation.Set && _commands.SetsReusably)
        {
            _writing = true;
            _commands.StartSet(_write ??= new StoreWrite(AnswerScheduler), KeyValueCommands.KeyOf(key.Span), command, value);
            return;
        }

        Issue(_commands.StoreAsync(KeyValueCommands.KeyOf(key.Span), command, value));
    }

    /// <inheritdoc/>
    protected override void Delete(ReadOnlyMemory<byte> key) => Issue(_commands.DeleteAsync(KeyValueCommands.KeyOf(key.Span)));

    /// <inheritdoc/>
    protected override void Increment(ReadOnlyMemory<byte> key, ulong delta, bool increment) =>
        Issue(_commands.IncrementAsync(KeyValueCommands.KeyOf(key.Span), delta, increment));

    /// <inheritdoc/>
    protected override void Touch(ReadOnlyMemory<byte> key, int expirationSeconds) => Issue(_commands.TouchAsync(KeyValueCommands.KeyOf(key.Span), expirationSeconds));

    /// <inheritdoc/>
    protected override void FlushAll(int delaySeconds) => Issue(_commands.FlushAllAsync(delaySeconds));

    /// <inheritdoc/>
    protected override void Get(int first, int count, int? expirationSeconds)
    {
        _getFirst = first;
        if (expirationSeconds is null && _commands.ReadsReusably)
        {
            // The keys are asked for together with the last flush_all, if the one known here is too old.
            _flushing = _commands.FlushToAwait();
            for (var i = first; i < count; i++)
            {
                var read = _reads[_readCount++] ??= new StoreRead(AnswerScheduler);
                _commands.StartRead(read, KeyValueCommands.KeyOf(Token(i)));
            }

            return;
        }

        for (var i = first; i < count; i++)
        {
            Issue(_commands.GetAsync(KeyValueCommands.KeyOf(Token(i)), expirationSeconds));
        }
    }

    /// <inheritdoc/>
    protected override void WriteAnswers()
    {
        if (_writing)
        {
            WriteReply(_write!.Reply);
            _write.Recycle();
            _writing = false;
        }
        else if (_readCount > 0)
        {
            WriteReads();
        }
        else if (_getFirst >= 0)
        {
            WriteValues();
        }
        else
        {
            WriteReply(_pending[0].Result);
        }

        for (var i = 0; i < _readCount; i++)
        {
            _reads[i]!.Recycle();
        }

        Array.Clear(_pending, 0, _pendingCount);
        _pendingCount = 0;
        _readCount = 0;
        _flushing = null;
        _getFirst = -1;
    }

    /// <inheritdoc/>
    protected override void WriteStatistics()
    {
        var statistics = _commands.Statistics;
        WriteStat("cmd_get"u8, (ulong)statistics.GetCommands);
        WriteStat("cmd_set"u8, (ulong)statistics.SetCommands);
        WriteStat("cmd_touch"u8, (ulong)statistics.TouchCommands);
        WriteStat("cmd_flush"u8, (ulong)statistics.FlushCommands);
        WriteStat("get_hits"u8, (ulong)statistics.GetHits);
        WriteStat("get_misses"u8, (ulong)(statistics.GetCommands - statistics.GetHits));
        WriteStat("item_size_max"u8, (ulong)_itemSizeMaxBytes);
    }

    private void Issue(Task<KeyValueReply> answer) => _pending[_pendingCount++] = answer;

    /// <summary>Writes a get's hits in order and <c>END</c>; stops at the first failure, whose error it writes.</summary>
    private void WriteValues()
    {
        for (var i = 0; i < _pendingCount; i++)
        {
            var reply = _pending[i].Result;
            if (reply.Kind == KeyValueReplyKind.Value)
            {
                WriteValue(Token(_getFirst + i), reply.Item.Data.Span, reply.Item.Flags, (ulong)reply.Version);
            }
            else if (reply.Kind != KeyValueReplyKind.Miss)
            {
                StopGet(reply.ErrorLine);
                return;
            }
        }

        EndGetBatch();
    }

    /// <summary>Writes the hits of a get read with the connection's reads, in order, and <c>END</c>; stops at the first failure, whose error it writes.</summary>
    private void WriteReads()
    {
        byte[]? error = null;
        for (var i = 0; i < _readCount; i++)
        {
            if (_commands.TryReadItem(_reads[i]!, out var data, out var flags, out var failure))
            {
                if (error is null)
                {
                    WriteValue(Token(_getFirst + i), data, flags, _reads[i]!.ResponseVersion);
                }
            }
            else
            {
                error ??= failure;
            }
        }

        if (error is not null)
        {
            StopGet(error);
            return;
        }

        EndGetBatch();
    }

    private void WriteReply(KeyValueReply reply)
    {
        switch (reply.Kind)
        {
            case KeyValueReplyKind.Stored: Reply("STORED\r\n"u8); break;
            case KeyValueReplyKind.NotStored: Reply("NOT_STORED\r\n"u8); break;
            case KeyValueReplyKind.Exists: Reply("EXISTS\r\n"u8); break;
            case KeyValueReplyKind.NotFound: Reply("NOT_FOUND\r\n"u8); break;
            case KeyValueReplyKind.Deleted: Reply("DELETED\r\n"u8); break;
            case KeyValueReplyKind.Touched: Reply("TOUCHED\r\n"u8); break;
            case KeyValueReplyKind.Ok: Reply("OK\r\n"u8); break;
            case KeyValueReplyKind.Number when !NoReply:
                WriteNumber(reply.Number);
                Write("\r\n"u8);
                break;
            case KeyValueReplyKind.Error: WriteError(reply.ErrorLine); break;
        }
    }
}
