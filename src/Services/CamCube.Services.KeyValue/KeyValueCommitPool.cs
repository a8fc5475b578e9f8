using CamCube.Services.KeyValue.Replication;

namespace CamCube.Services.KeyValue;

/// <summary>
/// Commit threads shared by the stores of many servers in one process, such as the nodes of a
/// real-time cube that share one loop (<see cref="KeyValueServiceOptions.CommitPool"/>). A server
/// with a thread of its own per store would put dozens of threads, each waiting for its own disk
/// writes, on a few cores; here a server with writes waiting joins a queue, a free thread commits
/// them all at once, and the writes that arrive meanwhile wait for the server's next turn, so
/// batches grow with the load and a process runs as many commit threads as it chooses. A server's
/// commits stay in order: at most one thread commits for it at a time.
/// </summary>
public sealed class KeyValueCommitPool : IDisposable
{
    private readonly Queue<PooledCommitter> _ready = new();
    private readonly Thread[] _threads;
    private bool _stopping;

    /// <summary>Starts the pool's threads.</summary>
    /// <param name="threads">How many commits may run at once (each mostly waits for the disk).</param>
    /// <param name="name">The pool's name, for its threads' names.</param>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="threads"/> is less than 1.</exception>
    public KeyValueCommitPool(int threads, string name = "kv commit pool")
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(threads, 1);
        _threads = new Thread[threads];
        for (var i = 0; i < threads; i++)
        {
            _threads[i] = new Thread(Run) { IsBackground = true, Name = $"{name} {i}" };
            _threads[i].Start();
        }
    }

    /// <summary>Gets how many threads commit.</summary>
    public int ThreadCount => _threads.Length;

    /// <summary>Commits every server's waiting writes, then stops the threads and waits for them.</summary>
    public void Dispose()
    {
        lock (_ready)
        {
            if (_stopping)
            {
                return;
            }

            _stopping = true;
            Monitor.PulseAll(_ready);
        }

        foreach (var thread in _threads)
        {
            thread.Join();
        }
    }

    /// <summary>Queues a server's committer for a turn on a thread; false once the pool stopped (the caller commits itself).</summary>
    internal bool TryEnqueue(PooledCommitter committer)
    {
        lock (_ready)
        {
            if (_stopping)
            {
                return false;
            }

            _ready.Enqueue(committer);
            Monitor.Pulse(_ready);
            return true;
        }
    }

    private void Run()
    {
        while (true)
        {
            PooledCommitter next;
            lock (_ready)
            {
                while (_ready.Count == 0 && !_stopping)
                {
                    Monitor.Wait(_ready);
                }

                if (_ready.Count == 0)
                {
                    return;
                }

                next = _ready.Dequeue();
            }

            next.CommitTurn();
        }
    }
}
