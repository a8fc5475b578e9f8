using System.Buffers;
using System.Buffers.Text;
using System.IO.Pipelines;
using System.Net.Sockets;

namespace CamCube.Memcached;

/// <summary>
/// One client of a memcached text-protocol front-end: frames command lines and data blocks out of a
/// <see cref="PipeReader"/>, parses each command (protocol.txt of memcached 1.6) and hands it to the
/// service's subclass, runs each command to completion in order (so a client always reads its own
/// writes), and writes replies to a <see cref="PipeWriter"/>, flushing once per batch of pipelined
/// commands, when input runs dry. A command the subclass cannot answer at once leaves pending
/// answers (<see cref="PendingCount"/>), awaited here in the connection's one long-lived method (so
/// awaiting a pooled answer allocates nothing) before the next command is read, while the data they
/// borrow stays unconsumed. A line is copied into a per-connection buffer of
/// <see cref="MemcachedFrontEndOptions.LineLengthMax"/> bytes; a longer get line is answered piece by
/// piece (MemcachedTextConnection.Get), anything else that long closes the connection.
/// </summary>
public abstract partial class MemcachedTextConnection
{
    /// <summary>What <see cref="Execute"/> asks of the framing loop besides consuming data bytes.</summary>
    private const long NeedMoreInput = -1;
    private const long CloseConnection = -2;

    private readonly IDisposable? _transport;
    private readonly PipeReader _reader;
    private readonly PipeWriter _writer;
    private readonly MemcachedFrontEndOptions _options;
    private readonly byte[] _line;
    private readonly Range[] _tokens;
    private readonly TaskCompletionSource _completion = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private long _swallowLeft;
    private bool _lineComplete;
    private int _lineUsed;
    private bool _skipLine;
    private bool _noReply;
    private bool _withCas;
    private bool _tokensTruncated;
    private bool _getContinues;
    private int? _getExpiration;
    private volatile bool _closing;

    /// <summary>Creates a connection over a duplex pipe; <paramref name="transport"/>, if any, is disposed when it ends (a socket's stream).</summary>
    /// <param name="reader">The client's requests.</param>
    /// <param name="writer">Where replies go.</param>
    /// <param name="transport">What carries the pipe, disposed when the connection ends; null for an in-process pipe.</param>
    /// <param name="options">The front-end's settings (line and get limits, clock, version).</param>
    /// <exception cref="ArgumentNullException">The reader, writer or options are null.</exception>
    protected MemcachedTextConnection(PipeReader reader, PipeWriter writer, IDisposable? transport, MemcachedFrontEndOptions options)
    {
        ArgumentNullException.ThrowIfNull(reader);
        ArgumentNullException.ThrowIfNull(writer);
        ArgumentNullException.ThrowIfNull(options);
        _transport = transport;
        AnswerScheduler = (transport as ThreadedSocketPipe)?.AnswerScheduler;
        _reader = reader;
        _writer = writer;
        _options = options;
        _line = new byte[options.LineLengthMax];
        _tokens = new Range[options.KeysPerGetMax + 2];
    }

    /// <summary>Gets a task that completes when the connection has closed.</summary>
    internal Task Completion => _completion.Task;

    /// <summary>Serves the client until it quits, disconnects, breaks the protocol beyond repair or the front-end stops.</summary>
    internal async Task RunAsync()
    {
        try
        {
            await ProcessAsync().ConfigureAwait(false);
        }
        catch (Exception ex) when (ex is IOException or SocketException or ObjectDisposedException or OperationCanceledException or InvalidOperationException)
        {
            // The client went away or the front-end stopped: nothing to answer.
        }
        finally
        {
            await _reader.CompleteAsync().ConfigureAwait(false);
            try
            {
                await _writer.CompleteAsync().ConfigureAwait(false);
            }
            catch (Exception ex) when (ex is IOException or SocketException or ObjectDisposedException)
            {
                // Replies that could not be sent to a client that left.
            }

            _transport?.Dispose();
            _completion.TrySetResult();
        }
    }

    /// <summary>Ends a running connection: wakes its pending read and closes its transport.</summary>
    internal void Close()
    {
        _closing = true;
        try
        {
            _reader.CancelPendingRead();
        }
        catch (Exception ex) when (ex is InvalidOperationException or ObjectDisposedException)
        {
            // The connection already ended.
        }

        _transport?.Dispose();
    }

    /// <summary>Tells a client it is turned away (over the connection limit, as memcached says it, or the front-end is stopping) and closes.</summary>
    /// <param name="stopping">True when the front-end is stopping: the client is told so, not that there are too many connections.</param>
    internal async Task RejectAsync(bool stopping)
    {
        try
        {
            _writer.Write(stopping ? "SERVER_ERROR the front-end is shutting down\r\n"u8 : "SERVER_ERROR Too many open connections\r\n"u8);
            await _writer.FlushAsync().ConfigureAwait(false);
            await _writer.CompleteAsync().ConfigureAwait(false);
            await _reader.CompleteAsync().ConfigureAwait(false);
        }
        catch (Exception ex) when (ex is IOException or SocketException or ObjectDisposedException)
        {
            // The client left first.
        }
        finally
        {
            _transport?.Dispose();
            _completion.TrySetResult();
        }
    }

    private async Task ProcessAsync()
    {
        while (true)
        {
            var result = await _reader.ReadAsync().ConfigureAwait(false);
            if (result.IsCanceled && _closing)
            {
                return;
            }

            var buffer = result.Buffer;
            var close = false;
            while (!close)
            {
                if (!SkipInput(ref buffer))
                {
                    break;
                }

                if (!_getContinues && !buffer.IsEmpty && buffer.FirstSpan[0] == BinaryProtocol.RequestMagic)
                {
                    // A binary-protocol client: answer its first request as memcached answers an unknown command, then close.
                    if (buffer.Length >= BinaryProtocol.HeaderBytes)
                    {
                        BinaryProtocol.WriteUnknownCommand(buffer.Slice(0, BinaryProtocol.HeaderBytes), _writer);
                        close = true;
                    }

                    break;
                }

                if (!TryTakeLine(buffer, out var length, out var rest))
                {
                    break;
                }

                _lineUsed = length;
                var outcome = _getContinues ? ContinueGet(length) : Execute(length, rest);

                // Pending answers are awaited here, in the connection's one long-lived method; the data
                // they borrow stays unconsumed until then.
                var pending = PendingCount;
                for (var i = 0; i < pending; i++)
                {
                    await PendingAnswer(i).ConfigureAwait(false);
                }

                if (pending > 0)
                {
                    WriteAnswers();
                }

                if (outcome == NeedMoreInput)
                {
                    break;
                }

                close = outcome == CloseConnection;
                buffer = close ? rest
                    : _getContinues || _skipLine ? buffer.Slice(_lineUsed) // the rest of a long get line
                    : rest.Slice(outcome);
                if (_writer.UnflushedBytes > _options.ReplyFlushThresholdBytes)
                {
                    await _writer.FlushAsync().ConfigureAwait(false);
                }
            }

            if (_writer.UnflushedBytes > 0)
            {
                await _writer.FlushAsync().ConfigureAwait(false);
            }

            _reader.AdvanceTo(buffer.Start, result.Buffer.End);
            if (close || result.IsCompleted)
            {
                return;
            }
        }
    }

    /// <summary>Skips what the connection decided not to read: a refused value, the rest of a failed get line; false if that takes all of <paramref name="buffer"/>.</summary>
    private bool SkipInput(ref ReadOnlySequence<byte> buffer)
    {
        if (_swallowLeft > 0)
        {
            // The rest of a value the front-end refused (too large, or its command line refused): skip it as it arrives.
            var skip = Math.Min(_swallowLeft, buffer.Length);
            buffer = buffer.Slice(skip);
            _swallowLeft -= skip;
            if (_swallowLeft > 0)
            {
                return false;
            }
        }

        if (_skipLine)
        {
            var end = buffer.PositionOf((byte)'\n');
            if (end is null)
            {
                buffer = buffer.Slice(buffer.End);
                return false;
            }

            buffer = buffer.Slice(buffer.GetPosition(1, end.Value));
            _skipLine = false;
        }

        return true;
    }

    /// <summary>
    /// Copies the next command line into the line buffer, without its terminator; <paramref name="rest"/>
    /// is what follows it. A line longer than the buffer is taken up to its last space within the
    /// buffer (<see cref="_lineComplete"/> false): a get's keys stream through in such pieces, as
    /// memcached takes get lines of any length, and any other command is refused. False if the line
    /// is not all here yet.
    /// </summary>
    private bool TryTakeLine(in ReadOnlySequence<byte> buffer, out int length, out ReadOnlySequence<byte> rest)
    {
        var end = buffer.PositionOf((byte)'\n');
        if (end is not null && buffer.Slice(0, end.Value).Length <= _line.Length)
        {
            var line = buffer.Slice(0, end.Value);
            line.CopyTo(_line);
            length = (int)line.Length;
            if (length > 0 && _line[length - 1] == (byte)'\r')
            {
                length--;
            }

            rest = buffer.Slice(buffer.GetPosition(1, end.Value));
            _lineComplete = true;
            return true;
        }

        if (buffer.Length <= _line.Length)
        {
            length = 0;
            rest = default;
            return false;
        }

        buffer.Slice(0, _line.Length).CopyTo(_line);
        length = Math.Max(0, _line.AsSpan().LastIndexOf((byte)' '));
        rest = buffer.Slice(length);
        _lineComplete = false;
        return true;
    }

    /// <summary>Gets the front-end's settings.</summary>
    protected MemcachedFrontEndOptions Options => _options;

    /// <summary>Gets the scheduler of the client's own receiving thread, when it has one (<see cref="MemcachedFrontEndOptions.ReceiveThreadsMax"/>): answers awaited there cost no thread-pool hand-off.</summary>
    protected ReceiveThreadScheduler? AnswerScheduler { get; }

    /// <summary>Gets a value indicating whether the current get is a gets or gats, whose values carry their cas unique.</summary>
    protected bool WithCas => _withCas;

    /// <summary>Gets a value indicating whether the current command said noreply.</summary>
    protected bool NoReply => _noReply;

    /// <summary>Gets the number of answers the current command left pending; <see cref="PendingAnswer"/> is awaited for each, then <see cref="WriteAnswers"/> runs.</summary>
    protected abstract int PendingCount { get; }

    /// <summary>Gets the largest value a storage command may carry, in bytes; a larger one is answered <c>SERVER_ERROR object too large for cache</c> and skipped.</summary>
    protected abstract long ItemSizeMaxBytes { get; }

    /// <summary>Gets the token at <paramref name="index"/> of the current command line (0 is the command's name, 1 its key); valid until the next command.</summary>
    protected ReadOnlySpan<byte> Token(int index) => _line.AsSpan()[_tokens[index]];

    /// <summary>Gets the token at <paramref name="index"/> as memory over the line buffer; valid until the current command's answers are written.</summary>
    protected ReadOnlyMemory<byte> TokenMemory(int index) => _line.AsMemory(_tokens[index]);

    /// <summary>Gets the pending answer at <paramref name="index"/>, awaited before the next is asked for; backed by a reusable <see cref="System.Threading.Tasks.Sources.IValueTaskSource"/>, awaiting it allocates nothing.</summary>
    /// <param name="index">From 0 to <see cref="PendingCount"/> - 1.</param>
    /// <returns>A task that completes when the answer is in.</returns>
    protected abstract ValueTask PendingAnswer(int index);

    /// <summary>Writes the replies of the pending answers, all complete by now, and forgets them (<see cref="PendingCount"/> 0 after).</summary>
    protected abstract void WriteAnswers();

    /// <summary>Writes bytes of a reply.</summary>
    /// <param name="bytes">The bytes.</param>
    protected void Write(ReadOnlySpan<byte> bytes) => _writer.Write(bytes);

    /// <summary>Writes a number of a reply in decimal.</summary>
    /// <param name="value">The number.</param>
    protected void WriteNumber(ulong value)
    {
        var span = _writer.GetSpan(20);
        Utf8Formatter.TryFormat(value, span, out var written);
        _writer.Advance(written);
    }

    /// <summary>Writes a normal reply, unless the command said noreply.</summary>
    /// <param name="line">The reply with its terminator.</param>
    protected void Reply(ReadOnlySpan<byte> line)
    {
        if (!_noReply)
        {
            Write(line);
        }
    }

    /// <summary>Writes an error reply, unless the command said noreply: memcached silences errors too once it has seen noreply.</summary>
    /// <param name="line">The error with its terminator.</param>
    protected void WriteError(ReadOnlySpan<byte> line) => Reply(line);

    private static bool TryParse(ReadOnlySpan<byte> text, out ulong value) =>
        Utf8Parser.TryParse(text, out value, out var consumed) && consumed == text.Length;

    private static bool TryParse(ReadOnlySpan<byte> text, out long value) =>
        Utf8Parser.TryParse(text, out value, out var consumed) && consumed == text.Length;

    private static bool TryParse(ReadOnlySpan<byte> text, out int value) =>
        Utf8Parser.TryParse(text, out value, out var consumed) && consumed == text.Length;

    private static bool TryParse(ReadOnlySpan<byte> text, out uint value) =>
        Utf8Parser.TryParse(text, out value, out var consumed) && consumed == text.Length;
}
