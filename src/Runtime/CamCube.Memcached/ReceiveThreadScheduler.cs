using System.IO.Pipelines;

namespace CamCube.Memcached;

/// <summary>
/// Runs the answer of a request that went through the node's loop on the client's own receiving
/// thread (<see cref="ThreadedSocketPipe"/>) instead of the thread pool: the thread, having handed
/// the request to the loop, waits for the answer and writes the reply itself, so a request costs
/// one wake-up of that thread, not a hand-off to a pool worker (and the pool's spinning). A
/// continuation the thread is not waiting for (it blocks on unread input, the connection ended, or
/// the await happened on another thread) goes to the thread pool as before.
/// </summary>
public sealed class ReceiveThreadScheduler : PipeScheduler
{
    private readonly object _gate = new();
    private Thread? _thread;
    private bool _expecting;
    private bool _stopped;
    private Action<object?>? _action;
    private object? _state;

    /// <summary>Binds the scheduler to the receiving thread; only awaits on that thread are answered there.</summary>
    public void Bind(Thread thread) => _thread = thread;

    /// <summary>
    /// Notes that the code running now awaits an answer that will be <see cref="Schedule"/>d; taken
    /// only on the receiving thread, which then waits for it in <see cref="RunExpected"/>.
    /// </summary>
    public void Expect()
    {
        if (Thread.CurrentThread != _thread)
        {
            return;
        }

        lock (_gate)
        {
            _expecting = !_stopped;
        }
    }

    /// <summary>
    /// Runs an answer's continuation off the node's loop: on <paramref name="scheduler"/>'s receiving
    /// thread when it waits for it (<see cref="Schedule"/>), on the thread pool when there is no scheduler.
    /// </summary>
    /// <param name="scheduler">The client's scheduler, or null when it has no receiving thread of its own.</param>
    /// <param name="action">The continuation.</param>
    /// <param name="state">Its state.</param>
    public static void Dispatch(ReceiveThreadScheduler? scheduler, Action<object?> action, object? state)
    {
        if (scheduler is null)
        {
            System.Threading.ThreadPool.UnsafeQueueUserWorkItem(action, state, preferLocal: true);
            return;
        }

        scheduler.Schedule(action, state);
    }

    /// <inheritdoc/>
    public override void Schedule(Action<object?> action, object? state)
    {
        lock (_gate)
        {
            if (_expecting && _action is null)
            {
                _action = action;
                _state = state;
                Monitor.Pulse(_gate);
                return;
            }
        }

        System.Threading.ThreadPool.UnsafeQueueUserWorkItem(action, state, preferLocal: false);
    }

    /// <summary>
    /// On the receiving thread: runs each expected answer as it comes, until the connection awaits
    /// nothing more from the loop (it reads input again) or the scheduler is stopped.
    /// </summary>
    public void RunExpected()
    {
        while (true)
        {
            Action<object?> action;
            object? state;
            lock (_gate)
            {
                while (_expecting && _action is null && !_stopped)
                {
                    Monitor.Wait(_gate);
                }

                if (_action is null)
                {
                    // Nothing expected, or stopped: what is still to come goes to the pool.
                    _expecting = false;
                    return;
                }

                action = _action;
                state = _state;
                _action = null;
                _state = null;
                _expecting = false;
            }

            action(state);
        }
    }

    /// <summary>
    /// Hands what the receiving thread would wait for to the thread pool, before the thread blocks on
    /// something else (unread input over its bound) or ends; with <paramref name="stop"/>, for good.
    /// </summary>
    public void Release(bool stop)
    {
        Action<object?>? action;
        object? state;
        lock (_gate)
        {
            _stopped |= stop;
            _expecting = false;
            action = _action;
            state = _state;
            _action = null;
            _state = null;
            Monitor.Pulse(_gate);
        }

        if (action is not null)
        {
            System.Threading.ThreadPool.UnsafeQueueUserWorkItem(action, state, preferLocal: false);
        }
    }
}
