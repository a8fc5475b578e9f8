using System.Buffers;
using System.IO.Pipelines;
using CamCube.Memcached;

namespace CamCube.Services.KeyValue.FrontEnd;

/// <summary>
/// One client of the store's memcached front-end: the protocol is <see cref="MemcachedTextConnection"/>'s,
/// each command a call of <see cref="KeyValueCommands"/> whose answer the protocol's loop awaits
/// before it reads the next command (a get's keys are asked for together, answered in order).
/// </summary>
internal sealed class KeyValueConnection : MemcachedTextConnection
{
    private readonly KeyValueCommands _commands;
    private readonly int _itemSizeMaxBytes;
    private readonly Task<KeyValueReply>[] _pending;
    private int _pendingCount;
    private int _getFirst = -1;

    /// <summary>Creates a connection over a duplex pipe; <paramref name="transport"/>, if any, is disposed when it ends.</summary>
    public KeyValueConnection(PipeReader reader, PipeWriter writer, IDisposable? transport, KeyValueCommands commands, KeyValueFrontEndOptions options)
        : base(reader, writer, transport, options.Connections)
    {
        _commands = commands;
        _itemSizeMaxBytes = options.ItemSizeMaxBytes;
        _pending = new Task<KeyValueReply>[options.Connections.KeysPerGetMax + 2];
    }

    /// <inheritdoc/>
    protected override int PendingCount => _pendingCount;

    /// <inheritdoc/>
    protected override long ItemSizeMaxBytes => _itemSizeMaxBytes;

    /// <inheritdoc/>
    protected override ValueTask PendingAnswer(int index) => new(_pending[index]);

    /// <inheritdoc/>
    protected override void Store(ReadOnlyMemory<byte> key, in MemcachedStorageCommand command, in ReadOnlySequence<byte> value) =>
        Issue(_commands.StoreAsync(KeyValueCommands.KeyOf(key.Span), command, value));

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
        for (var i = first; i < count; i++)
        {
            Issue(_commands.GetAsync(KeyValueCommands.KeyOf(Token(i)), expirationSeconds));
        }
    }

    /// <inheritdoc/>
    protected override void WriteAnswers()
    {
        if (_getFirst >= 0)
        {
            WriteValues();
        }
        else
        {
            WriteReply(_pending[0].Result);
        }

        Array.Clear(_pending, 0, _pendingCount);
        _pendingCount = 0;
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
