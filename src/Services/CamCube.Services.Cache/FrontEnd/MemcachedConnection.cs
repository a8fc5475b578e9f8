using System.Buffers;
using System.Buffers.Text;
using System.IO.Pipelines;
using System.Net.Sockets;

namespace CamCube.Services.Cache.FrontEnd;

/// <summary>
/// One client of the memcached front-end: frames command lines and data blocks out of a
/// <see cref="PipeReader"/>, runs each command to completion in order (so a client always reads its
/// own writes), and writes replies to a <see cref="PipeWriter"/>, flushing once per batch of
/// pipelined commands, when input runs dry. A command whose key is rooted here runs on this
/// thread (<see cref="CacheService.TryGetLocally"/>); others go through the node's loop in the
/// connection's own <see cref="ReusableRequest"/>s, awaited here, so neither path allocates per request.
/// A line is copied into a per-connection buffer of <see cref="MemcachedFrontEndOptions.LineLengthMax"/> bytes;
/// a longer get line is answered piece by piece (MemcachedConnection.Get), anything else that long closes the connection.
/// </summary>
internal sealed partial class MemcachedConnection : IDisposable, ICacheValueSink
{
    /// <summary>What <see cref="Execute"/> asks of the framing loop besides consuming data bytes.</summary>
    private const long NeedMoreInput = -1;
    private const long CloseConnection = -2;

    private static readonly StreamPipeReaderOptions s_readerOptions = new(bufferSize: 16 * 1024, minimumReadSize: 4 * 1024);
    private static readonly StreamPipeWriterOptions s_writerOptions = new(minimumBufferSize: 16 * 1024);

    private readonly IDisposable? _transport;
    private readonly ReceiveThreadScheduler? _answerScheduler;
    private readonly PipeReader _reader;
    private readonly PipeWriter _writer;
    private readonly CacheService _service;
    private readonly MemcachedFrontEndOptions _options;
    private readonly byte[] _line;
    private readonly Range[] _tokens;
    private readonly ReusableRequest?[] _requests;
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
    private int _issued;
    private bool _answersAreValues;
    private volatile bool _closing;

    /// <summary>Creates a connection over a duplex pipe; <paramref name="transport"/>, if any, is disposed when it ends (a socket's stream).</summary>
    public MemcachedConnection(PipeReader reader, PipeWriter writer, IDisposable? transport, CacheService service, MemcachedFrontEndOptions options)
    {
        _transport = transport;
        _answerScheduler = (transport as ThreadedSocketPipe)?.AnswerScheduler;
        _reader = reader;
        _writer = writer;
        _service = service;
        _options = options;
        _line = new byte[options.LineLengthMax];
        _tokens = new Range[options.KeysPerGetMax + 2];
        _requests = new ReusableRequest?[_tokens.Length];
    }

    /// <summary>Creates a connection over a TCP socket, which it owns.</summary>
    public static MemcachedConnection ForSocket(Socket socket, CacheService service, MemcachedFrontEndOptions options)
    {
        var stream = new NetworkStream(socket, ownsSocket: true);
        return new MemcachedConnection(PipeReader.Create(stream, s_readerOptions), PipeWriter.Create(stream, s_writerOptions), stream, service, options);
    }

    /// <summary>Gets a task that completes when the connection has closed.</summary>
    public Task Completion => _completion.Task;

    /// <summary>Serves the client until it quits, disconnects, breaks the protocol beyond repair or the front-end stops.</summary>
    public async Task RunAsync()
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
    public void Dispose()
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

    /// <summary>Tells a client over the connection limit so, as memcached does, and closes.</summary>
    public async Task RejectAsync()
    {
        try
        {
            _writer.Write("SERVER_ERROR Too many open connections\r\n"u8);
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

    /// <inheritdoc/>
    public void OnValue(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value, uint flags, ulong cas) => WriteValue(key, value, flags, cas);

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

                // Requests through the loop are awaited here, in the connection's one long-lived
                // method, so awaiting allocates nothing; the data they borrow stays unconsumed until then.
                for (var i = 0; i < _issued; i++)
                {
                    await _requests[i]!.Answer.ConfigureAwait(false);
                }

                WriteAnswers();
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
            // The rest of a value the front-end refused (too large): skip it as it arrives.
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

    private ReadOnlySpan<byte> Token(int index) => _line.AsSpan()[_tokens[index]];

    private void Write(ReadOnlySpan<byte> bytes) => _writer.Write(bytes);

    private void WriteNumber(ulong value)
    {
        var span = _writer.GetSpan(20);
        Utf8Formatter.TryFormat(value, span, out var written);
        _writer.Advance(written);
    }

    /// <summary>Writes a normal reply, unless the command said noreply.</summary>
    private void Reply(ReadOnlySpan<byte> line)
    {
        if (!_noReply)
        {
            Write(line);
        }
    }

    /// <summary>Writes an error reply, unless the command said noreply: memcached silences errors too once it has seen noreply.</summary>
    private void WriteError(ReadOnlySpan<byte> line) => Reply(line);

    private static bool TryParse(ReadOnlySpan<byte> text, out ulong value) =>
        Utf8Parser.TryParse(text, out value, out var consumed) && consumed == text.Length;

    private static bool TryParse(ReadOnlySpan<byte> text, out long value) =>
        Utf8Parser.TryParse(text, out value, out var consumed) && consumed == text.Length;

    private static bool TryParse(ReadOnlySpan<byte> text, out int value) =>
        Utf8Parser.TryParse(text, out value, out var consumed) && consumed == text.Length;

    private static bool TryParse(ReadOnlySpan<byte> text, out uint value) =>
        Utf8Parser.TryParse(text, out value, out var consumed) && consumed == text.Length;
}
