using System.Buffers;
using System.IO.Pipelines;
using System.Text;
using CamCube.Services.Cache.FrontEnd;

namespace CamCube.Services.Cache.Tests;

/// <summary>
/// A client of a front-end over two in-memory pipes that run continuations inline: whatever the
/// front-end can answer without the node's loop is answered before <see cref="Send"/> returns.
/// </summary>
internal sealed class InlinePipeClient : IDuplexPipe
{
    private readonly Pipe _requests;
    private readonly Pipe _replies;
    private readonly object _replyGate = new();
    private readonly Action _onReply;
    private bool _replied;

    public InlinePipeClient(MemcachedFrontEnd frontEnd, MemoryPool<byte>? pool = null)
    {
        var options = new PipeOptions(pool, PipeScheduler.Inline, PipeScheduler.Inline, useSynchronizationContext: false);
        _requests = new Pipe(options);
        _replies = new Pipe(options);
        _onReply = OnReply;
        Serving = frontEnd.ServeAsync(this);
    }

    /// <summary>Gets the front-end's end: it reads requests here.</summary>
    public PipeReader Input => _requests.Reader;

    /// <summary>Gets the front-end's end: it writes replies here.</summary>
    public PipeWriter Output => _replies.Writer;

    /// <summary>Gets the front-end's task serving this client.</summary>
    public Task Serving { get; }

    /// <summary>Writes <paramref name="request"/> and flushes; the front-end consumes it inline.</summary>
    public void Send(ReadOnlySpan<byte> request)
    {
        _requests.Writer.Write(request);
        var flush = _requests.Writer.FlushAsync();
        if (!flush.IsCompleted)
        {
            throw new Xunit.Sdk.XunitException("The front-end did not read the request inline.");
        }

        flush.GetAwaiter().GetResult();
    }

    /// <summary>Takes every reply byte written so far; returns how many (0 if none).</summary>
    public long TakeReplyBytes()
    {
        if (!_replies.Reader.TryRead(out var result))
        {
            return 0;
        }

        _replies.Reader.AdvanceTo(result.Buffer.End);
        return result.Buffer.Length;
    }

    /// <summary>
    /// Blocks until <paramref name="length"/> reply bytes arrived, written by the front-end from any
    /// thread, and takes them. Allocates nothing: a continuation pulses a monitor. Throws on a longer
    /// reply or none within <paramref name="timeout"/>.
    /// </summary>
    public void WaitForReplyBytes(int length, TimeSpan timeout)
    {
        while (true)
        {
            var result = WaitFor(_replies.Reader.ReadAsync(), timeout);
            var buffer = result.Buffer;
            if (buffer.Length < length && !result.IsCompleted)
            {
                _replies.Reader.AdvanceTo(buffer.Start, buffer.End);
                continue;
            }

            _replies.Reader.AdvanceTo(buffer.End);
            if (buffer.Length != length)
            {
                throw new Xunit.Sdk.XunitException($"A reply of {buffer.Length} bytes, not {length}.");
            }

            return;
        }
    }

    /// <summary>Takes every reply byte written so far, as text.</summary>
    public string TakeReply()
    {
        if (!_replies.Reader.TryRead(out var result))
        {
            return "";
        }

        var text = Encoding.ASCII.GetString(result.Buffer);
        _replies.Reader.AdvanceTo(result.Buffer.End);
        return text;
    }

    /// <summary>Waits for the next reply bytes, written by the front-end from another thread.</summary>
    public async Task<string> ReadReplyAsync()
    {
        var result = await _replies.Reader.ReadAsync();
        var text = Encoding.ASCII.GetString(result.Buffer);
        _replies.Reader.AdvanceTo(result.Buffer.End);
        return text;
    }

    private ReadResult WaitFor(ValueTask<ReadResult> read, TimeSpan timeout)
    {
        var awaiter = read.ConfigureAwait(false).GetAwaiter();
        if (!awaiter.IsCompleted)
        {
            lock (_replyGate)
            {
                _replied = false;
            }

            awaiter.UnsafeOnCompleted(_onReply);
            lock (_replyGate)
            {
                while (!_replied)
                {
                    if (!Monitor.Wait(_replyGate, timeout))
                    {
                        throw new Xunit.Sdk.XunitException($"No reply within {timeout}.");
                    }
                }
            }
        }

        return awaiter.GetResult();
    }

    private void OnReply()
    {
        lock (_replyGate)
        {
            _replied = true;
            Monitor.PulseAll(_replyGate);
        }
    }

    /// <summary>Ends the client: the front-end sees its input complete and ends the connection.</summary>
    public Task CloseAsync()
    {
        _requests.Writer.Complete();
        return Serving;
    }
}
