using System.Collections.Concurrent;
using CamCube.Packets;
using CamCube.Transport;

namespace CamCube.Runtime.Posting;

/// <summary>
/// Work posted to one service from any thread, run on its node's event loop (camcubeos 3.3: one
/// logical thread per node). Posting enqueues and, for the first item since the last drain, posts
/// the mailbox itself to the loop once; the loop drains what was there. Bounded by
/// <see cref="NodeOptions.PostedItemsMax"/>: past it a post is refused. Allocates nothing per post
/// in steady state (the queue reuses its segments).
/// </summary>
internal sealed class ServiceMailbox : ILoopWork
{
    private readonly Node _node;
    private readonly ServiceSlot _slot;
    private readonly ConcurrentQueue<PostedItem> _items = new();
    private readonly int _itemsMax;
    private int _count;
    private int _scheduled;
    private volatile bool _closed;

    public ServiceMailbox(Node node, ServiceSlot slot, int itemsMax)
    {
        _node = node;
        _slot = slot;
        _itemsMax = itemsMax;
        SynchronizationContext = new LoopSynchronizationContext(this);
    }

    /// <summary>Gets the context current while posted work runs: an <c>await</c> in it resumes on the loop, through this mailbox.</summary>
    public LoopSynchronizationContext SynchronizationContext { get; }

    /// <summary>Gets how many items wait.</summary>
    public int Count => Volatile.Read(ref _count);

    /// <summary>
    /// Queues work for the loop. Thread-safe. False when the mailbox is closed (the service left) or,
    /// if <paramref name="bounded"/>, full; the continuation of work already running is not bounded.
    /// </summary>
    public bool TryPost(object callback, object? state, bool bounded = true)
    {
        if (_closed)
        {
            return false;
        }

        if (Interlocked.Increment(ref _count) > _itemsMax && bounded)
        {
            Interlocked.Decrement(ref _count);
            return false;
        }

        _items.Enqueue(new PostedItem(callback, state));

        // Once per drain: the drain clears the flag before it takes items, so nothing waits unseen.
        // A mailbox closed meanwhile is scheduled all the same: the loop then abandons the item.
        if (Interlocked.Exchange(ref _scheduled, 1) == 0)
        {
            _node.PostWork(this);
        }

        return true;
    }

    /// <summary>The service left the node: no more work runs, and what waits is abandoned. On the loop.</summary>
    public void Close()
    {
        _closed = true;
        AbandonAll();
    }

    /// <inheritdoc/>
    void ILoopWork.Execute(int code, int argument, Packet? packet)
    {
        Volatile.Write(ref _scheduled, 0);
        if (_closed)
        {
            AbandonAll();
            return;
        }

        // What was posted before this turn runs now; what it posts runs in a later turn, so one
        // service's posts cannot keep the loop from its links.
        var previous = System.Threading.SynchronizationContext.Current;
        System.Threading.SynchronizationContext.SetSynchronizationContext(SynchronizationContext);
        try
        {
            for (var n = Volatile.Read(ref _count); n > 0 && !_closed && _items.TryDequeue(out var item); n--)
            {
                Interlocked.Decrement(ref _count);
                _node.RunPosted(_slot, item);
            }
        }
        finally
        {
            System.Threading.SynchronizationContext.SetSynchronizationContext(previous);
        }

        if (!_items.IsEmpty && Interlocked.Exchange(ref _scheduled, 1) == 0)
        {
            _node.PostWork(this);
        }
    }

    private void AbandonAll()
    {
        while (_items.TryDequeue(out var item))
        {
            Interlocked.Decrement(ref _count);
            (item.State as IAbandonable)?.Abandon();
        }
    }
}
