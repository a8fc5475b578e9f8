using System.Buffers;
using System.IO.Pipelines;
using System.Net.Sockets;

namespace CamCube.Memcached;

/// <summary>
/// A client socket served by a thread of its own that blocks in receive, as memcached's worker
/// threads do: when a request arrives the kernel wakes that thread, which hands the bytes to the
/// connection inline (both pipes schedule inline), so a command on the local path is parsed,
/// executed and answered on it, and its reply sent, for one wake-up, where asynchronous sockets
/// cost two (the socket engine's thread, then a pool thread). Replies written from another thread
/// (a command that went through the node's loop) are sent from that thread; the answer of such a
/// command is awaited by this thread too (<see cref="ReceiveThreadScheduler"/>), which writes and
/// sends its reply, so the thread pool has no part in serving the client.
/// </summary>
internal sealed class ThreadedSocketPipe : IDuplexPipe, IDisposable
{
    private const int ReceiveBytesMin = 16 * 1024;
    private const int ThreadStackBytes = 256 * 1024;
    private const int SendTimeoutMilliseconds = 10_000;
    private const int CoalescedBytesMax = 16 * 1024;

    private readonly Socket _socket;
    private readonly Pipe _received;
    private readonly Pipe _replies;
    private readonly Thread _thread;
    private readonly byte[] _coalesced = new byte[CoalescedBytesMax];
    private readonly ReceiveThreadScheduler _answers = new();
    private Task _sending = Task.CompletedTask;
    private int _disposed;

    /// <summary>Creates the pipe; <paramref name="receivedBytesMax"/> bounds what waits unread, and must hold the largest command with its value.</summary>
    public ThreadedSocketPipe(Socket socket, long receivedBytesMax)
    {
        _socket = socket;

        // A client that does not read its replies holds the sending thread this long at most, then is closed.
        _socket.SendTimeout = SendTimeoutMilliseconds;
        _received = new Pipe(new PipeOptions(null, PipeScheduler.Inline, PipeScheduler.Inline, receivedBytesMax, receivedBytesMax / 2, useSynchronizationContext: false));
        _replies = new Pipe(new PipeOptions(null, PipeScheduler.Inline, PipeScheduler.Inline, useSynchronizationContext: false));
        _thread = new Thread(Receive, ThreadStackBytes) { IsBackground = true, Name = "memcached client" };
        _answers.Bind(_thread);
    }

    /// <summary>Gets the scheduler for the answers the connection awaits from the node's loop: they run on the receiving thread.</summary>
    public ReceiveThreadScheduler AnswerScheduler => _answers;

    /// <summary>Gets what the client sent, for the connection to read.</summary>
    public PipeReader Input => _received.Reader;

    /// <summary>Gets where the connection writes replies; they are sent as they are flushed.</summary>
    public PipeWriter Output => _replies.Writer;

    /// <summary>Starts the receiving thread and the sending of replies.</summary>
    public void Start()
    {
        _sending = SendRepliesAsync();
        _thread.Start();
    }

    /// <summary>
    /// Ends the client: shuts the socket down, which ends the receiving thread and so the connection;
    /// the socket is closed once the sending of replies has ended too.
    /// </summary>
    public void Dispose()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
        {
            return;
        }

        _answers.Release(stop: true);
        if (_sending.IsCompleted)
        {
            Close();
            return;
        }

        Shutdown();
    }

    private void Receive()
    {
        var writer = _received.Writer;
        try
        {
            while (true)
            {
                var received = _socket.Receive(writer.GetMemory(ReceiveBytesMin).Span);
                if (received == 0)
                {
                    break;
                }

                writer.Advance(received);

                // The connection runs inline here; it makes this wait only while it holds the bound of unread bytes,
                // and then answers from the loop go to the thread pool, since this thread cannot take them.
                var flush = writer.FlushAsync();
                FlushResult result;
                if (flush.IsCompleted)
                {
                    result = flush.GetAwaiter().GetResult();
                }
                else
                {
                    _answers.Release(stop: false);
                    result = flush.AsTask().GetAwaiter().GetResult();
                }

                // The commands that went through the node's loop: their replies are written and sent from here.
                _answers.RunExpected();
                if (result.IsCompleted)
                {
                    break;
                }
            }
        }
        catch (Exception ex) when (ex is SocketException or ObjectDisposedException or IOException)
        {
            // The client left, or the connection ended and closed the socket.
        }
        finally
        {
            _answers.Release(stop: true);
            writer.Complete();
        }
    }

    private void SendAll(ReadOnlySpan<byte> bytes)
    {
        while (!bytes.IsEmpty)
        {
            bytes = bytes[_socket.Send(bytes)..];
        }
    }

    private async Task SendRepliesAsync()
    {
        var reader = _replies.Reader;
        try
        {
            while (true)
            {
                var result = await reader.ReadAsync().ConfigureAwait(false);
                // Blocking, on the thread that flushed: an asynchronous operation would make the socket
                // non-blocking for good, and the receiving thread's waits would go through the socket engine.
                var replies = result.Buffer;
                if (replies.IsSingleSegment)
                {
                    SendAll(replies.FirstSpan);
                }
                else if (replies.Length <= _coalesced.Length)
                {
                    // A reply across two pipe segments leaves in one send, not two packets.
                    replies.CopyTo(_coalesced);
                    SendAll(_coalesced.AsSpan(0, (int)replies.Length));
                }
                else
                {
                    foreach (var segment in replies)
                    {
                        SendAll(segment.Span);
                    }
                }

                reader.AdvanceTo(result.Buffer.End);
                if (result.IsCompleted)
                {
                    return;
                }
            }
        }
        catch (Exception ex) when (ex is SocketException or ObjectDisposedException or IOException)
        {
            // The client left: its replies go nowhere.
        }
        finally
        {
            await reader.CompleteAsync().ConfigureAwait(false);
            Close();
        }
    }

    /// <summary>Shuts down first: closing a socket that a thread is blocked on would reset the connection.</summary>
    private void Close()
    {
        Shutdown();
        _socket.Dispose();
    }

    private void Shutdown()
    {
        try
        {
            _socket.Shutdown(SocketShutdown.Both);
        }
        catch (Exception ex) when (ex is SocketException or ObjectDisposedException)
        {
            // The client already left.
        }
    }
}
