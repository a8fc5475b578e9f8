using CamCube.Packets;

namespace CamCube.Transport.Faults;

/// <summary>
/// A decorator over any <see cref="ILinkTransport"/> that injects faults (STYLE.md convention 5):
/// random drop, duplication, delay and reordering of received frames, cut links and partitions.
/// Randomness comes only from the seeded <see cref="Random"/> it is given and time only from the
/// loop's <see cref="IEventLoop.TimeProvider"/>, so in the simulator a run replays exactly.
/// </summary>
/// <remarks>
/// <para>Random faults act on frames as they come up from the inner transport (see
/// <see cref="FaultOptions"/> for the order of the draws). A duplicate is a copy rented from the
/// copy pool; a frame longer than the pool's packets is not duplicated.</para>
/// <para>A cut link looks down to the node (<see cref="ITransportSink.OnLinkStatus"/>): no room,
/// sends refused, received frames dropped. It is this node's end only; cut both ends' decorators
/// to cut a cable. A partition drops frames to and from servers on another side without any
/// status change, as a silent network would: sends are accepted and lost, received frames dropped.</para>
/// <para>Like every transport, it calls its sink only on the node's loop and is called only there.</para>
/// </remarks>
public sealed class FaultInjectingTransport : ILinkTransport, ITransportSink, ILoopWork
{
    private static readonly TimerCallback s_onTimer = static state =>
    {
        var self = (FaultInjectingTransport)state!;
        self._loop.Post(self, FaultEventCodes.DeliverDelayed, 0, null);
    };

    private readonly ILinkTransport _inner;
    private readonly IEventLoop _loop;
    private readonly Random _random;
    private readonly PriorityQueue<DelayedFrame, (long DueTimestamp, long Sequence)> _delayed = new();
    private readonly bool[] _cut = new bool[LinkDirections.Count];
    private readonly bool[] _innerDown = new bool[LinkDirections.Count];
    private PacketPool? _copyPool;
    private FaultOptions _faults = FaultOptions.None;
    private ITransportSink? _sink;
    private ITimer? _timer;
    private long _timerDueTimestamp = long.MaxValue;
    private long _delayedSequence;
    private bool _stopped;

    /// <summary>Wraps <paramref name="inner"/>.</summary>
    /// <param name="inner">The transport whose frames get the faults.</param>
    /// <param name="loop">The node's loop: its clock times delays and delayed frames are delivered on it.</param>
    /// <param name="random">A seeded random source owned by this decorator (never <c>Random.Shared</c>).</param>
    /// <param name="copyPool">The pool duplicates are rented from; a pool of 9,000-byte packets if null.</param>
    /// <param name="partition">The partition shared by all nodes' decorators, or null for none.</param>
    public FaultInjectingTransport(ILinkTransport inner, IEventLoop loop, Random random, PacketPool? copyPool = null, NetworkPartition? partition = null)
    {
        ArgumentNullException.ThrowIfNull(inner);
        ArgumentNullException.ThrowIfNull(loop);
        ArgumentNullException.ThrowIfNull(random);
        _inner = inner;
        _loop = loop;
        _random = random;
        _copyPool = copyPool;
        Partition = partition;
    }

    /// <summary>Gets or sets the random faults applied from now on.</summary>
    /// <exception cref="ArgumentOutOfRangeException">An option is out of range.</exception>
    public FaultOptions Faults
    {
        get => _faults;
        set
        {
            ArgumentNullException.ThrowIfNull(value);
            value.Validate();
            _faults = value;
        }
    }

    /// <summary>Gets or sets the partition this node obeys, or null for none.</summary>
    public NetworkPartition? Partition { get; set; }

    /// <inheritdoc/>
    public TorusShape Shape => _inner.Shape;

    /// <inheritdoc/>
    public Coordinate Self => _inner.Self;

    /// <summary>Gets how many frames came up from the inner transport.</summary>
    public long FramesReceived { get; private set; }

    /// <summary>Gets how many frames (copies included) were handed to the node.</summary>
    public long FramesDelivered { get; private set; }

    /// <summary>Gets how many received frames were dropped at random.</summary>
    public long FramesDropped { get; private set; }

    /// <summary>Gets how many received frames were duplicated.</summary>
    public long FramesDuplicated { get; private set; }

    /// <summary>Gets how many received frames were held back to be reordered.</summary>
    public long FramesReordered { get; private set; }

    /// <summary>Gets how many frames were lost on a cut link (received, or waiting in the delay queue when the link was cut).</summary>
    public long FramesDroppedByCut { get; private set; }

    /// <summary>Gets how many frames, sent or received, were lost to the partition.</summary>
    public long FramesDroppedByPartition { get; private set; }

    /// <summary>Gets how many frames wait in the delay queue.</summary>
    public int FramesHeld => _delayed.Count;

    /// <summary>Cuts this node's end of <paramref name="link"/>: the node sees it go down.</summary>
    public void CutLink(LinkDirection link)
    {
        CheckLink(link);
        if (!_cut[(int)link])
        {
            _cut[(int)link] = true;
            if (!_innerDown[(int)link])
            {
                _loop.Post(this, FaultEventCodes.LinkDown, (int)link, null);
            }
        }
    }

    /// <summary>Restores this node's end of <paramref name="link"/>: the node sees it come up if the inner transport has it up.</summary>
    public void RestoreLink(LinkDirection link)
    {
        CheckLink(link);
        if (_cut[(int)link])
        {
            _cut[(int)link] = false;
            if (!_innerDown[(int)link])
            {
                _loop.Post(this, FaultEventCodes.LinkUp, (int)link, null);
            }
        }
    }

    /// <summary>Gets whether this node's end of <paramref name="link"/> is cut.</summary>
    public bool IsLinkCut(LinkDirection link)
    {
        CheckLink(link);
        return _cut[(int)link];
    }

    /// <inheritdoc/>
    public void Start(ITransportSink sink)
    {
        ArgumentNullException.ThrowIfNull(sink);
        if (_sink is not null)
        {
            throw new InvalidOperationException("A transport starts once.");
        }

        _sink = sink;
        _inner.Start(this);
    }

    /// <inheritdoc/>
    public void Stop()
    {
        if (_stopped)
        {
            return;
        }

        _stopped = true;
        _timer?.Dispose();
        _inner.Stop();
        while (_delayed.TryDequeue(out var held, out _))
        {
            held.Frame.Release();
        }
    }

    /// <inheritdoc/>
    public bool HasRoom(LinkDirection link) => (uint)link < LinkDirections.Count && !_cut[(int)link] && _inner.HasRoom(link);

    /// <inheritdoc/>
    public bool TrySend(LinkDirection link, Packet frame)
    {
        ArgumentNullException.ThrowIfNull(frame);
        if ((uint)link >= LinkDirections.Count || _cut[(int)link] || _stopped)
        {
            return false;
        }

        if (IsPartitioned(link))
        {
            // A silent loss: the frame is taken, and the link has room again as if it had left.
            frame.Release();
            FramesDroppedByPartition++;
            _loop.Post(this, FaultEventCodes.LinkRoom, (int)link, null);
            return true;
        }

        return _inner.TrySend(link, frame);
    }

    /// <inheritdoc/>
    void ITransportSink.OnFrameReceived(LinkDirection link, Packet frame)
    {
        FramesReceived++;
        if (_stopped || IsBlocked(link, frame))
        {
            return;
        }

        var faults = _faults;
        if (faults.DropProbability > 0 && _random.NextDouble() < faults.DropProbability)
        {
            FramesDropped++;
            frame.Release();
            return;
        }

        Packet? copy = null;
        if (faults.DuplicateProbability > 0 && _random.NextDouble() < faults.DuplicateProbability)
        {
            copy = TryCopy(frame);
        }

        var delay = faults.Delay;
        if (faults.ReorderProbability > 0 && _random.NextDouble() < faults.ReorderProbability)
        {
            FramesReordered++;
            delay += faults.ReorderDelay;
        }

        if (delay == TimeSpan.Zero)
        {
            Deliver(link, frame);
            if (copy is not null)
            {
                Deliver(link, copy);
            }

            return;
        }

        var due = _loop.TimeProvider.GetTimestamp() + ToTimestampTicks(delay);
        Hold(link, frame, due);
        if (copy is not null)
        {
            Hold(link, copy, due);
        }
    }

    /// <inheritdoc/>
    void ITransportSink.OnLinkRoom(LinkDirection link)
    {
        if (!_cut[(int)link] && !_stopped)
        {
            _sink!.OnLinkRoom(link);
        }
    }

    /// <inheritdoc/>
    void ITransportSink.OnLinkStatus(LinkDirection link, bool up)
    {
        _innerDown[(int)link] = !up;
        if (!_cut[(int)link] && !_stopped)
        {
            _sink!.OnLinkStatus(link, up);
        }
    }

    /// <inheritdoc/>
    void ILoopWork.Execute(int code, int argument, Packet? packet)
    {
        if (_stopped)
        {
            return;
        }

        var link = (LinkDirection)argument;
        switch (code)
        {
            case FaultEventCodes.DeliverDelayed:
                DeliverDue();
                break;
            case FaultEventCodes.LinkDown:
                _sink!.OnLinkStatus(link, up: false);
                break;
            case FaultEventCodes.LinkUp:
                _sink!.OnLinkStatus(link, up: true);
                if (HasRoom(link))
                {
                    _sink.OnLinkRoom(link);
                }

                break;
            default:
                if (HasRoom(link))
                {
                    _sink!.OnLinkRoom(link);
                }

                break;
        }
    }

    private static void CheckLink(LinkDirection link)
    {
        if ((uint)link >= LinkDirections.Count)
        {
            throw new ArgumentOutOfRangeException(nameof(link), link, "Link directions are 0..5.");
        }
    }

    private bool IsPartitioned(LinkDirection link) =>
        Partition is { IsActive: true } partition && partition.Separates(Self, Shape.Neighbor(Self, link));

    /// <summary>Drops and counts the frame if its link is cut or crosses the partition.</summary>
    private bool IsBlocked(LinkDirection link, Packet frame)
    {
        if (_cut[(int)link])
        {
            FramesDroppedByCut++;
        }
        else if (IsPartitioned(link))
        {
            FramesDroppedByPartition++;
        }
        else
        {
            return false;
        }

        frame.Release();
        return true;
    }

    private Packet? TryCopy(Packet frame)
    {
        _copyPool ??= new PacketPool();
        if (frame.Length > _copyPool.PacketCapacityBytes)
        {
            return null;
        }

        var copy = _copyPool.Rent();
        frame.CopyTo(copy);
        FramesDuplicated++;
        return copy;
    }

    private void Deliver(LinkDirection link, Packet frame)
    {
        FramesDelivered++;
        _sink!.OnFrameReceived(link, frame);
    }

    private void Hold(LinkDirection link, Packet frame, long dueTimestamp)
    {
        _delayed.Enqueue(new DelayedFrame(frame, link), (dueTimestamp, ++_delayedSequence));
        ArmTimer(dueTimestamp);
    }

    private void DeliverDue()
    {
        _timerDueTimestamp = long.MaxValue;
        var now = _loop.TimeProvider.GetTimestamp();
        while (_delayed.TryPeek(out var held, out var due) && due.DueTimestamp <= now)
        {
            _delayed.Dequeue();
            if (!IsBlocked(held.Link, held.Frame))
            {
                Deliver(held.Link, held.Frame);
            }
        }

        if (_delayed.TryPeek(out _, out var next))
        {
            ArmTimer(next.DueTimestamp);
        }
    }

    private void ArmTimer(long dueTimestamp)
    {
        if (dueTimestamp >= _timerDueTimestamp)
        {
            return;
        }

        _timerDueTimestamp = dueTimestamp;
        var clock = _loop.TimeProvider;
        _timer ??= clock.CreateTimer(s_onTimer, this, Timeout.InfiniteTimeSpan, Timeout.InfiniteTimeSpan);
        var waitTicks = Math.Max(0, dueTimestamp - clock.GetTimestamp());

        // Round up to whole TimeSpan ticks so the timer never fires before the frame is due.
        var wait = TimeSpan.FromTicks((long)((((Int128)waitTicks * TimeSpan.TicksPerSecond) + clock.TimestampFrequency - 1) / clock.TimestampFrequency));
        _timer.Change(wait, Timeout.InfiniteTimeSpan);
    }

    private long ToTimestampTicks(TimeSpan delay) =>
        (long)((Int128)delay.Ticks * _loop.TimeProvider.TimestampFrequency / TimeSpan.TicksPerSecond);

    private readonly record struct DelayedFrame(Packet Frame, LinkDirection Link);
}
