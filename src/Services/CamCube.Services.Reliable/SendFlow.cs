namespace CamCube.Services.Reliable;

/// <summary>
/// The sending half of one flow: its messages in order, the sliding window of packets sent and not
/// yet acknowledged (one <see cref="SendSlot"/> per sequence number, modulo the window), and its
/// retransmission timeout. Pure state over timestamps, so the window logic is tested without a node.
/// </summary>
internal sealed class SendFlow
{
    private readonly SendSlot[] _slots;
    private readonly Queue<OutgoingMessage> _waiting = new();
    private readonly Queue<OutgoingMessage> _begun = new();
    private readonly int _fragmentBytes;
    private int _lostCount;

    public SendFlow(int windowPackets, int fragmentBytes, RtoEstimator rto)
    {
        _slots = new SendSlot[windowPackets];
        _fragmentBytes = fragmentBytes;
        Rto = rto;
    }

    /// <summary>Gets or sets the flow's id on the wire.</summary>
    public ulong FlowId { get; set; }

    /// <summary>Gets or sets the key the flow is addressed to, or null for a flow to a server.</summary>
    public KeyCoordinate? Key { get; set; }

    /// <summary>Gets or sets the server the flow's packets go to (for a key, its root when the flow began).</summary>
    public Coordinate Server { get; set; }

    /// <summary>Gets the next sequence number to give a new packet.</summary>
    public uint NextSequence { get; private set; }

    /// <summary>Gets the first sequence number not acknowledged cumulatively.</summary>
    public uint FirstUnacked { get; private set; }

    /// <summary>Gets the flow's retransmission timeout.</summary>
    public RtoEstimator Rto { get; }

    /// <summary>Gets or sets when the retransmission timer of the flow expires, in timestamp ticks (0: not running).</summary>
    public long RetransmitDeadline { get; set; }

    /// <summary>Gets or sets when the flow last made progress (or began), in timestamp ticks.</summary>
    public long LastProgress { get; set; }

    /// <summary>Gets or sets whether the flow sits in the endpoint's list of flows to poll.</summary>
    public bool Listed { get; set; }

    /// <summary>
    /// Gets or sets whether the flow waits for its server's first acknowledgement: a new flow to a
    /// key sends one packet until the root has answered, so that if the root dies first, no message
    /// of more than one packet can have reached it whole and each can resume at the new root.
    /// </summary>
    public bool Probing { get; set; }

    /// <summary>Gets how many packets are in flight.</summary>
    public int InFlight => (int)(NextSequence - FirstUnacked);

    /// <summary>Gets how many messages are queued or in flight.</summary>
    public int MessageCount => _waiting.Count + _begun.Count;

    /// <summary>Gets or sets whether the flow has carried a message to its current server (acknowledged, or delivered here): only then may it follow the key's root elsewhere.</summary>
    public bool Carried { get; set; }

    /// <summary>Gets whether a message has begun (a packet of it was sent) and is not yet wholly acknowledged.</summary>
    public bool HasBegun => _begun.Count > 0;

    /// <summary>Gets whether a packet can be sent now: one deemed lost, or a new one within the window.</summary>
    public bool HasPacketToSend => _lostCount > 0 || (InFlight < WindowPackets && HasNewFragment);

    private int WindowPackets => Probing ? 1 : _slots.Length;

    private bool HasNewFragment => _waiting.Count > 0 || (_begun.Count > 0 && LastBegun.FragmentsSent < LastBegun.PacketCount);

    private OutgoingMessage LastBegun { get; set; } = null!;

    /// <summary>Queues a message behind the flow's others.</summary>
    public void Enqueue(OutgoingMessage message) => _waiting.Enqueue(message);

    /// <summary>Takes every queued message (for local delivery), oldest first.</summary>
    public bool TryTakeWaiting(out OutgoingMessage message) => _waiting.TryDequeue(out message!);

    /// <summary>
    /// Picks the next packet to send: the oldest one deemed lost, else the next new fragment within
    /// the window. Records it as sent at <paramref name="now"/> and returns its sequence number and slot.
    /// </summary>
    /// <returns>False if nothing can be sent.</returns>
    public bool TryNext(long now, out uint sequence, out SendSlot slot)
    {
        if (_lostCount > 0)
        {
            for (var s = FirstUnacked; s != NextSequence; s++)
            {
                ref var lost = ref _slots[s % (uint)_slots.Length];
                if (lost.Lost)
                {
                    lost.Lost = false;
                    lost.Retransmitted = true;
                    lost.SentTimestamp = now;
                    _lostCount--;
                    sequence = s;
                    slot = lost;
                    return true;
                }
            }
        }

        if (InFlight >= WindowPackets || !HasNewFragment)
        {
            sequence = 0;
            slot = default;
            return false;
        }

        if (_begun.Count == 0 || LastBegun.FragmentsSent == LastBegun.PacketCount)
        {
            var next = _waiting.Dequeue();
            next.FirstSequence = NextSequence;
            next.FragmentsSent = 0;
            _begun.Enqueue(next);
            LastBegun = next;
        }

        var message = LastBegun;
        var offset = message.FragmentsSent * _fragmentBytes;
        message.FragmentsSent++;
        sequence = NextSequence++;
        ref var fresh = ref _slots[sequence % (uint)_slots.Length];
        fresh = new SendSlot { Message = message, Offset = offset, Length = Math.Min(_fragmentBytes, message.Body.Length - offset), SentTimestamp = now };
        slot = fresh;
        return true;
    }

    /// <summary>
    /// Applies an acknowledgement: everything below <paramref name="cumulative"/> and inside the
    /// SACK blocks is held by the receiver. Takes a round-trip sample from <paramref name="trigger"/>
    /// if it was sent once (Karn's rule), completes the messages now wholly acknowledged, and marks
    /// as lost the packets the receiver has not got although three later ones arrived and a round trip
    /// and a quarter has passed since they were sent.
    /// </summary>
    /// <returns>True if the cumulative acknowledgement moved (progress).</returns>
    public bool OnAck(long now, uint cumulative, uint trigger, ReadOnlySpan<uint> sackBlocks)
    {
        // An acknowledgement past what was sent is not of this flow's life: ignore it.
        if ((int)(cumulative - FirstUnacked) < 0 || (int)(cumulative - NextSequence) > 0)
        {
            return false;
        }

        if ((int)(trigger - FirstUnacked) >= 0 && (int)(trigger - NextSequence) < 0)
        {
            ref var sampled = ref _slots[trigger % (uint)_slots.Length];
            if (sampled.Message is not null && !sampled.Retransmitted && !sampled.Sacked)
            {
                Rto.AddSample(now - sampled.SentTimestamp);
            }
        }

        var progress = cumulative != FirstUnacked;
        Probing = false;
        for (var s = FirstUnacked; s != cumulative; s++)
        {
            ref var slot = ref _slots[s % (uint)_slots.Length];
            _lostCount -= slot.Lost ? 1 : 0;
            slot = default;
        }

        FirstUnacked = cumulative;
        while (_begun.Count > 0 && (int)(_begun.Peek().EndSequence - cumulative) <= 0 && _begun.Peek().FragmentsSent == _begun.Peek().PacketCount)
        {
            _begun.Dequeue().Complete();
        }

        var highest = cumulative;
        for (var i = 0; i + 1 < sackBlocks.Length; i += 2)
        {
            // Clamped to what is in flight, so that a malformed block of 2^31 sequences costs no more than the window.
            var start = (int)(sackBlocks[i] - FirstUnacked) < 0 ? FirstUnacked : sackBlocks[i];
            var end = (int)(sackBlocks[i + 1] - NextSequence) > 0 ? NextSequence : sackBlocks[i + 1];
            for (var s = start; (int)(s - end) < 0; s++)
            {
                ref var slot = ref _slots[s % (uint)_slots.Length];
                if (!slot.Sacked)
                {
                    _lostCount -= slot.Lost ? 1 : 0;
                    slot.Lost = false;
                    slot.Sacked = true;
                }

                if ((int)(s + 1 - highest) > 0)
                {
                    highest = s + 1;
                }
            }
        }

        MarkLostBelow(now, highest);
        if (progress)
        {
            LastProgress = now;
        }

        return progress;
    }

    /// <summary>The retransmission timer expired: every packet unacknowledged for a timeout is deemed lost, and the timeout backs off (RFC 6298 5.4, 5.5).</summary>
    /// <returns>How many packets were marked lost.</returns>
    public int OnTimeout(long now)
    {
        var marked = 0;
        for (var s = FirstUnacked; s != NextSequence; s++)
        {
            ref var slot = ref _slots[s % (uint)_slots.Length];
            if (!slot.Sacked && !slot.Lost && (s == FirstUnacked || now - slot.SentTimestamp >= Rto.TimeoutTicks))
            {
                slot.Lost = true;
                _lostCount++;
                marked++;
            }
        }

        Rto.BackOff();
        return marked;
    }

    /// <summary>Marks one packet lost (the network said it dropped it), if it is still unacknowledged.</summary>
    public void MarkLost(uint sequence)
    {
        if ((int)(sequence - FirstUnacked) < 0 || (int)(sequence - NextSequence) >= 0)
        {
            return;
        }

        ref var slot = ref _slots[sequence % (uint)_slots.Length];
        if (!slot.Sacked && !slot.Lost)
        {
            slot.Lost = true;
            _lostCount++;
        }
    }

    /// <summary>
    /// The network dropped packet <paramref name="sequence"/> before it arrived: if it was sent only
    /// once and not acknowledged, its message is known not to have arrived whole.
    /// </summary>
    public void MarkUndelivered(uint sequence)
    {
        if ((int)(sequence - FirstUnacked) < 0 || (int)(sequence - NextSequence) >= 0)
        {
            return;
        }

        ref var slot = ref _slots[sequence % (uint)_slots.Length];
        if (slot.Message is not null && !slot.Retransmitted && !slot.Sacked)
        {
            slot.Message.KnownIncomplete = true;
        }
    }

    /// <summary>
    /// Ends the flow's life on its server: the window is emptied and the sequence starts again at 0.
    /// Begun messages whose every fragment was sent (none known lost on the way) may have reached the server and are handed to
    /// <paramref name="unsure"/>; the others go back to the front of the queue, from their start. With
    /// <paramref name="unsure"/> null the server is known to have accepted nothing, and every begun message goes back.
    /// </summary>
    public void Restart(List<OutgoingMessage>? unsure)
    {
        var resend = new List<OutgoingMessage>();
        while (_begun.TryDequeue(out var message))
        {
            if (unsure is not null && message.FragmentsSent == message.PacketCount && !message.KnownIncomplete)
            {
                unsure.Add(message);
            }
            else
            {
                message.FragmentsSent = 0;
                message.KnownIncomplete = false;
                resend.Add(message);
            }
        }

        while (_waiting.TryDequeue(out var message))
        {
            resend.Add(message);
        }

        foreach (var message in resend)
        {
            _waiting.Enqueue(message);
        }

        Array.Clear(_slots);
        _lostCount = 0;
        NextSequence = 0;
        FirstUnacked = 0;
        RetransmitDeadline = 0;
        Rto.Reset();
    }

    /// <summary>Takes every message of the flow, begun ones first, and empties it.</summary>
    public void TakeAll(List<OutgoingMessage> into)
    {
        while (_begun.TryDequeue(out var message))
        {
            into.Add(message);
        }

        while (_waiting.TryDequeue(out var message))
        {
            into.Add(message);
        }

        Array.Clear(_slots);
        _lostCount = 0;
        NextSequence = 0;
        FirstUnacked = 0;
        RetransmitDeadline = 0;
    }

    private void MarkLostBelow(long now, uint highest)
    {
        if (!Rto.HasSample)
        {
            return;
        }

        var reorderWindow = Rto.SmoothedTicks + (Rto.SmoothedTicks / 4);
        for (var s = FirstUnacked; (int)(highest - s) >= 3; s++)
        {
            ref var slot = ref _slots[s % (uint)_slots.Length];
            if (!slot.Sacked && !slot.Lost && now - slot.SentTimestamp > reorderWindow)
            {
                slot.Lost = true;
                _lostCount++;
            }
        }
    }
}
