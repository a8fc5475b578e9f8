using System.Buffers;
using System.Buffers.Text;
using System.IO.Pipelines;
using System.Net.Sockets;

namespace CamCube.Services.Cache.FrontEnd;

/// <summary>
/// One client of the memcached front-end: frames command lines and data blocks out of a
/// <see cref="PipeReader"/>, runs each command to completion in order (so a client always reads its
/// own writes), and writes replies to a <see cref="PipeWriter"/>, flushing when input runs dry.
/// A line is copied into a per-connection buffer of <see cref="MemcachedFrontEndOptions.LineLengthMax"/> bytes.
/// </summary>
internal sealed partial class MemcachedConnection : IDisposable
{
    /// <summary>What <see cref="ExecuteAsync"/> asks of the framing loop besides consuming data bytes.</summary>
    private const long NeedMoreInput = -1;
    private const long CloseConnection = -2;

    private static readonly StreamPipeReaderOptions s_readerOptions = new(bufferSize: 16 * 1024, minimumReadSize: 4 * 1024);
    private static readonly StreamPipeWriterOptions s_writerOptions = new(minimumBufferSize: 16 * 1024);

    private readonly Socket _socket;
    private readonly NetworkStream _stream;
    private readonly PipeReader _reader;
    private readonly PipeWriter _writer;
    private readonly CacheService _service;
    private readonly MemcachedFrontEndOptions _options;
    private readonly byte[] _line;
    private readonly Range[] _tokens;
    private readonly List<Task<CacheResponse>> _gets = [];
    private readonly TaskCompletionSource _completion = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private long _swallowLeft;
    private bool _noReply;

    public MemcachedConnection(Socket socket, CacheService service, MemcachedFrontEndOptions options)
    {
        _socket = socket;
        _stream = new NetworkStream(socket, ownsSocket: true);
        _reader = PipeReader.Create(_stream, s_readerOptions);
        _writer = PipeWriter.Create(_stream, s_writerOptions);
        _service = service;
        _options = options;
        _line = new byte[options.LineLengthMax];
        _tokens = new Range[options.KeysPerGetMax + 2];
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

            await _stream.DisposeAsync().ConfigureAwait(false);
            _completion.TrySetResult();
        }
    }

    /// <summary>Closes the socket, which ends a running connection.</summary>
    public void Dispose() => _stream.Dispose();

    /// <summary>Tells a client over the connection limit so, as memcached does, and closes.</summary>
    public async Task RejectAsync()
    {
        try
        {
            await _socket.SendAsync("SERVER_ERROR Too many open connections\r\n"u8.ToArray(), SocketFlags.None).ConfigureAwait(false);
        }
        catch (Exception ex) when (ex is SocketException or ObjectDisposedException)
        {
            // The client left first.
        }
        finally
        {
            await _stream.DisposeAsync().ConfigureAwait(false);
            _completion.TrySetResult();
        }
    }

    private async Task ProcessAsync()
    {
        while (true)
        {
            var result = await _reader.ReadAsync().ConfigureAwait(false);
            var buffer = result.Buffer;
            var close = false;
            while (!close)
            {
                if (_swallowLeft > 0)
                {
                    // The rest of a value the front-end refused (too large): skip it as it arrives.
                    var skip = Math.Min(_swallowLeft, buffer.Length);
                    buffer = buffer.Slice(skip);
                    _swallowLeft -= skip;
                    if (_swallowLeft > 0)
                    {
                        break;
                    }
                }

                var end = buffer.PositionOf((byte)'\n');
                if (end is null || buffer.Slice(0, end.Value).Length > _line.Length)
                {
                    if (buffer.Length > _line.Length)
                    {
                        WriteError("CLIENT_ERROR line too long\r\n"u8);
                        close = true;
                    }

                    break;
                }

                var line = buffer.Slice(0, end.Value);
                line.CopyTo(_line);
                var length = (int)line.Length;
                if (length > 0 && _line[length - 1] == (byte)'\r')
                {
                    length--;
                }

                var rest = buffer.Slice(buffer.GetPosition(1, end.Value));
                var outcome = await ExecuteAsync(length, rest).ConfigureAwait(false);
                if (outcome == NeedMoreInput)
                {
                    break;
                }

                close = outcome == CloseConnection;
                buffer = close ? rest : rest.Slice(outcome);
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

    /// <summary>Writes an error reply; errors are sent even under noreply so a client never waits blind.</summary>
    private void WriteError(ReadOnlySpan<byte> line) => Write(line);

    private static bool TryParse(ReadOnlySpan<byte> text, out ulong value) =>
        Utf8Parser.TryParse(text, out value, out var consumed) && consumed == text.Length;

    private static bool TryParse(ReadOnlySpan<byte> text, out long value) =>
        Utf8Parser.TryParse(text, out value, out var consumed) && consumed == text.Length;

    private static bool TryParse(ReadOnlySpan<byte> text, out uint value) =>
        Utf8Parser.TryParse(text, out value, out var consumed) && consumed == text.Length;
}
