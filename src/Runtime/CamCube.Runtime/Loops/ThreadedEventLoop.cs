using CamCube.Packets;
using CamCube.Transport;

namespace CamCube.Runtime.Loops;

/// <summary>
/// An event loop on a dedicated thread in real time: one per node process. Work posted from any
/// thread runs on the loop's thread in order. Disposing stops the thread after the current item.
/// </summary>
public sealed class ThreadedEventLoop : IEventLoop, IDisposable
{
    private readonly object _gate = new();
    // Sized for a burst of datagrams' frames, so that posting in steady state does not grow it.
    private readonly Queue<LoopWorkItem> _queue = new(4_096);
    private readonly Thread _thread;
    private readonly Action<Exception>? _onUnhandled;
    private readonly long _idleSpinTicks;
    private volatile int _queued;
    private volatile bool _stopping;

    /// <summary>Starts a loop thread named <paramref name="name"/>.</summary>
    /// <param name="name">The thread's name, shown in debuggers and dumps.</param>
    /// <param name="timeProvider">The clock; the system clock if null.</param>
    /// <param name="onUnhandled">Called on the loop thread with an exception a work item threw; the loop keeps running.</param>
    /// <param name="idleSpin">
    /// How long the loop keeps its core, spinning, when it runs out of work before it sleeps (zero,
    /// the default: it sleeps at once). Spinning saves the wake-up of a sleeping thread on the next
    /// arrival, a few microseconds on an idle core and far more on a busy one, at the price of that
    /// core: for latency-sensitive nodes with cores to spare, never for many nodes on few cores.
    /// </param>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="idleSpin"/> is negative or longer than a second.</exception>
    public ThreadedEventLoop(string name, TimeProvider? timeProvider = null, Action<Exception>? onUnhandled = null, TimeSpan idleSpin = default)
    {
        if (idleSpin < TimeSpan.Zero || idleSpin > TimeSpan.FromSeconds(1))
        {
            throw new ArgumentOutOfRangeException(nameof(idleSpin), idleSpin, "An event loop's idle spin is from zero to one second.");
        }

        TimeProvider = timeProvider ?? TimeProvider.System;
        IdleSpin = idleSpin;
        _idleSpinTicks = (long)(idleSpin.TotalSeconds * TimeProvider.System.TimestampFrequency);
        _onUnhandled = onUnhandled;
        _thread = new Thread(RunLoop) { IsBackground = true, Name = name };
        _thread.Start();
    }

    /// <inheritdoc/>
    public TimeProvider TimeProvider { get; }

    /// <summary>Gets how long the loop spins for new work before it sleeps.</summary>
    public TimeSpan IdleSpin { get; }

    /// <summary>Gets whether the calling thread is the loop's thread.</summary>
    public bool IsOnLoopThread => Environment.CurrentManagedThreadId == _thread.ManagedThreadId;

    /// <summary>Gets the loop's thread, so that tests can see it sleep and end.</summary>
    internal Thread LoopThread => _thread;

    /// <inheritdoc/>
    public void Post(ILoopWork target, int code, int argument, Packet? packet)
    {
        ArgumentNullException.ThrowIfNull(target);
        lock (_gate)
        {
            if (_stopping)
            {
                packet?.Release();
                return;
            }

            _queue.Enqueue(new LoopWorkItem(target, code, argument, packet));
            _queued = _queue.Count;
            if (_queue.Count == 1)
            {
                Monitor.Pulse(_gate);
            }
        }
    }

    /// <summary>Stops the loop and waits for its thread to end. Work still queued is dropped and its packets released.</summary>
    public void Dispose()
    {
        lock (_gate)
        {
            _stopping = true;
            Monitor.PulseAll(_gate);
        }

        if (!IsOnLoopThread)
        {
            _thread.Join();
        }
    }

    private void RunLoop()
    {
        while (true)
        {
            if (_idleSpinTicks > 0 && _queued == 0)
            {
                SpinForWork();
            }

            LoopWorkItem item;
            lock (_gate)
            {
                while (_queue.Count == 0 && !_stopping)
                {
                    Monitor.Wait(_gate);
                }

                if (_stopping)
                {
                    while (_queue.TryDequeue(out var dropped))
                    {
                        dropped.Packet?.Release();
                    }

                    return;
                }

                item = _queue.Dequeue();
                _queued = _queue.Count;
            }

            try
            {
                item.Run();
            }
#pragma warning disable CA1031 // A loop must survive a faulty work item; the owner decides what to log.
            catch (Exception ex)
#pragma warning restore CA1031
            {
                _onUnhandled?.Invoke(ex);
            }
        }
    }

    /// <summary>Waits for work without sleeping, up to the idle spin, reading the count without the lock.</summary>
    private void SpinForWork()
    {
        var start = TimeProvider.System.GetTimestamp();
        while (_queued == 0 && !_stopping && TimeProvider.System.GetTimestamp() - start < _idleSpinTicks)
        {
            Thread.SpinWait(20);
        }
    }
}
