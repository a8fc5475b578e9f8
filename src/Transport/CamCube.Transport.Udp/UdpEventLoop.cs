using CamCube.Packets;

namespace CamCube.Transport.Udp;

/// <summary>
/// A node's event loop that also reads the node's UDP socket, on one thread: a datagram goes from
/// the socket to the node with no hand-off between threads, so a round trip wakes two threads (one
/// per node), as a plain UDP ping-pong does, instead of four (a receive thread and a loop on each side).
/// </summary>
/// <remarks>
/// <para>A turn of the loop fires the timers that are due, runs up to <see cref="WorkItemsPerTurnMax"/>
/// posted work items, then reads up to <see cref="DatagramsPerTurnMax"/> datagrams from the socket of
/// the <see cref="UdpLinkTransport"/> that runs on it. It blocks only when no work is queued: in one
/// receive call on the socket (a poll when the next timer is less than 20 ms away, or while no
/// datagram has come since a wait ran out), for as long as the next timer allows. Another thread that posts work to a blocked
/// loop wakes it with a one-byte datagram from the loop's own wake socket, which the loop recognises
/// by its source address and drops (it is never counted as hostile); a post to a loop that is not
/// blocked sends nothing. Before a transport attaches its socket (and after it stops), the loop
/// blocks on a monitor instead.</para>
/// <para>After a turn in which its transport sent a datagram, the loop first watches its socket and
/// queue for up to <see cref="SpinAfterSend"/> (yielding the CPU between looks), since a reply is
/// likely soon; one that comes meanwhile is read without a wake-up.</para>
/// <para>Timers of <see cref="TimeProvider"/> run on the loop's thread (their callbacks should only post
/// work, as the runtime's do); they may be created and changed from any thread.</para>
/// </remarks>
public sealed partial class UdpEventLoop : IEventLoop, IDisposable
{
    /// <summary>The most posted work items a turn runs before it looks at the socket and the timers.</summary>
    public const int WorkItemsPerTurnMax = 1_024;

    /// <summary>The most datagrams a turn reads before it runs the work they posted.</summary>
    public const int DatagramsPerTurnMax = 64;

    private readonly object _gate = new();

    // Sized for a burst of datagrams' frames, so that posting in steady state does not grow it.
    private readonly Queue<UdpLoopWorkItem> _queue = new(4_096);
    private readonly Thread _thread;
    private readonly Action<Exception>? _onUnhandled;
    private Sleep _sleep;
    private bool _stopping;

    /// <summary>Starts a loop thread named <paramref name="name"/>.</summary>
    /// <param name="name">The thread's name, shown in debuggers and dumps.</param>
    /// <param name="onUnhandled">Called on the loop thread with an exception a work item or timer callback threw; the loop keeps running.</param>
    public UdpEventLoop(string name, Action<Exception>? onUnhandled = null)
    {
        TimeProvider = new UdpEventLoopClock(this);
        _onUnhandled = onUnhandled;
        _thread = new Thread(RunLoop) { IsBackground = true, Name = name };
        _thread.Start();
    }

    private enum Sleep
    {
        None,
        Monitor,
        Socket,
    }

    /// <summary>Gets the loop's clock: the system's time, with timers fired by the loop itself on its thread.</summary>
    public TimeProvider TimeProvider { get; }

    /// <summary>Gets whether the calling thread is the loop's thread.</summary>
    public bool IsOnLoopThread => Environment.CurrentManagedThreadId == _thread.ManagedThreadId;

    /// <inheritdoc/>
    public void Post(ILoopWork target, int code, int argument, Packet? packet)
    {
        ArgumentNullException.ThrowIfNull(target);
        bool wakeBySocket;
        lock (_gate)
        {
            if (_stopping)
            {
                packet?.Release();
                return;
            }

            _queue.Enqueue(new UdpLoopWorkItem(target, code, argument, packet));
            wakeBySocket = WakeLocked();
        }

        if (wakeBySocket)
        {
            SendWake();
        }
    }

    /// <summary>Stops the loop and waits for its thread to end. Work still queued is dropped and its packets released.</summary>
    public void Dispose()
    {
        bool wakeBySocket;
        lock (_gate)
        {
            _stopping = true;
            wakeBySocket = WakeLocked();
        }

        if (wakeBySocket)
        {
            SendWake();
        }

        if (!IsOnLoopThread)
        {
            _thread.Join();
        }
    }

    /// <summary>Wakes the loop if it is blocked (under the lock); returns whether that takes a wake datagram.</summary>
    private bool WakeLocked()
    {
        var sleep = _sleep;
        _sleep = Sleep.None;
        if (sleep == Sleep.Monitor)
        {
            Monitor.Pulse(_gate);
        }

        return sleep == Sleep.Socket;
    }
}
