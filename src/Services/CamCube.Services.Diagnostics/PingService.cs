using System.Buffers.Binary;
using CamCube.Packets;

namespace CamCube.Services.Diagnostics;

/// <summary>
/// Ping (camcubeos 4.2.2): a request is routed to a server, every hop increments a counter in its
/// payload, the destination turns it into a reply and routes it back; the sender reports the round
/// trip time and the hop counts. Use it on the node's event loop.
/// </summary>
/// <remarks>Payload: type (1 request, 2 reply), sequence (4 bytes), send timestamp (8 bytes), outbound hops, return hops (1 byte each).</remarks>
public sealed partial class PingService() : ServiceBase(ServiceId, "ping")
{
    /// <summary>The ping service's id.</summary>
    public new const ushort ServiceId = 0x0010;

    private const byte Request = 1;
    private const byte Reply = 2;
    private const int PayloadBytes = 15;

    private readonly Dictionary<uint, Pending> _pending = [];
    private uint _nextSequence;

    /// <summary>Gets the replies that came back after their ping had timed out.</summary>
    public long LateReplies { get; private set; }

    /// <summary>Pings <paramref name="target"/>; the task completes with the reply, or as lost after <paramref name="timeout"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The target is outside the torus, or the timeout is not positive.</exception>
    public Task<PingReply> PingAsync(Coordinate target, TimeSpan timeout)
    {
        Node.Shape.EnsureContains(target, nameof(target));
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(timeout, TimeSpan.Zero);
        var completion = new TaskCompletionSource<PingReply>(TaskCreationOptions.RunContinuationsAsynchronously);
        Send(target, timeout, completion, series: null);
        return completion.Task;
    }

    /// <summary>
    /// Pings <paramref name="target"/> <paramref name="count"/> times, one ping at a time: the next
    /// request leaves from the node's loop as soon as the previous reply arrives (or its ping times
    /// out), with no other thread between them. The task completes with every reply, in order.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The target is outside the torus, the count is not positive, or the timeout is not positive.</exception>
    public Task<PingReply[]> PingSeriesAsync(Coordinate target, int count, TimeSpan timeout)
    {
        Node.Shape.EnsureContains(target, nameof(target));
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(count, 0);
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(timeout, TimeSpan.Zero);
        var series = new Series(target, timeout, count);

        // One timer for the whole series, moved on for each ping: nothing is created per ping. A
        // firing that was queued before the ping it was armed for got its reply finds the next ping
        // too young, and leaves it alone.
        series.Timer = Node.CreateTimer(
            () =>
            {
                if (Node.TimeProvider.GetElapsedTime(series.SentTimestamp) >= series.Timeout)
                {
                    TimedOut(series.Sequence);
                }
            },
            Timeout.InfiniteTimeSpan,
            Timeout.InfiniteTimeSpan);
        Send(target, timeout, completion: null, series);
        return series.Completion.Task;
    }

    /// <inheritdoc/>
    public override ForwardDecision OnForward(Packet packet)
    {
        ArgumentNullException.ThrowIfNull(packet);
        if (packet.PayloadLength != PayloadBytes)
        {
            return ForwardDecision.Drop;
        }

        CountHop(packet.Payload);
        return ForwardDecision.Forward;
    }

    /// <inheritdoc/>
    public override bool OnDeliver(Packet packet)
    {
        ArgumentNullException.ThrowIfNull(packet);
        var payload = packet.Payload;
        if (payload.Length != PayloadBytes)
        {
            return false;
        }

        if (packet.ArrivalLink is not null)
        {
            CountHop(payload);
        }

        if (payload[0] == Request)
        {
            // Turn the request around: same payload, back to whoever sent it.
            payload[0] = Reply;
            Node.RouteToServer(packet, packet.Source);
            return true;
        }

        var sequence = BinaryPrimitives.ReadUInt32BigEndian(payload[1..]);
        if (!_pending.Remove(sequence, out var pending))
        {
            LateReplies++;
            return false;
        }

        var rtt = Node.TimeProvider.GetElapsedTime(BinaryPrimitives.ReadInt64BigEndian(payload[5..]));
        Complete(pending, new PingReply(pending.Target, Lost: false, rtt, payload[13], payload[14]));
        return false;
    }

    /// <inheritdoc/>
    public override void OnDeregistered()
    {
        foreach (var pending in _pending.Values)
        {
            pending.Timer.Dispose();
            var lost = new PingReply(pending.Target, Lost: true, TimeSpan.Zero, 0, 0);
            if (pending.Series is { } series)
            {
                series.Finish(lost);
            }
            else
            {
                pending.Completion!.TrySetResult(lost);
            }
        }

        _pending.Clear();
        base.OnDeregistered();
    }

    private static void CountHop(Span<byte> payload)
    {
        // The hop just taken: outbound while a request, return once it is a reply.
        var index = payload[0] == Request ? 13 : 14;
        payload[index] = (byte)Math.Min(255, payload[index] + 1);
    }

    /// <summary>Sends one request and remembers who waits for its reply.</summary>
    private void Send(Coordinate target, TimeSpan timeout, TaskCompletionSource<PingReply>? completion, Series? series)
    {
        var sequence = ++_nextSequence;
        ITimer timer;
        if (series is null)
        {
            timer = CreateTimeoutTimer(sequence, timeout);
        }
        else
        {
            series.Sequence = sequence;
            series.SentTimestamp = Node.TimeProvider.GetTimestamp();
            timer = series.Timer!;
            timer.Change(timeout, Timeout.InfiniteTimeSpan);
        }

        _pending.Add(sequence, new Pending(target, completion, series, timer));

        var packet = Node.CreatePacket();
        var payload = packet.PayloadArea;
        payload[0] = Request;
        BinaryPrimitives.WriteUInt32BigEndian(payload[1..], sequence);
        BinaryPrimitives.WriteInt64BigEndian(payload[5..], Node.TimeProvider.GetTimestamp());
        payload[13] = 0;
        payload[14] = 0;
        packet.PayloadLength = PayloadBytes;
        Node.RouteToServer(packet, target);
    }

    /// <summary>Hands a ping's outcome to whoever waits for it; a series sends its next request from here.</summary>
    private void Complete(in Pending pending, PingReply reply)
    {
        if (pending.Series is not { } series)
        {
            pending.Timer.Dispose();
            pending.Completion!.TrySetResult(reply);
            return;
        }

        if (series.Add(reply))
        {
            Send(series.Target, series.Timeout, completion: null, series);
        }
        else
        {
            series.Timer!.Dispose();
        }
    }

    /// <summary>A lone ping's timer (a separate method, so that only a lone ping pays for the closure).</summary>
    private ITimer CreateTimeoutTimer(uint sequence, TimeSpan timeout) =>
        Node.CreateTimer(() => TimedOut(sequence), timeout, Timeout.InfiniteTimeSpan);

    private void TimedOut(uint sequence)
    {
        if (_pending.Remove(sequence, out var pending))
        {
            Complete(pending, new PingReply(pending.Target, Lost: true, TimeSpan.Zero, 0, 0));
        }
    }

    /// <summary>A ping awaiting its reply (a value in the table: nothing allocated per ping of a series).</summary>
    private readonly record struct Pending(Coordinate Target, TaskCompletionSource<PingReply>? Completion, Series? Series, ITimer Timer);
}
