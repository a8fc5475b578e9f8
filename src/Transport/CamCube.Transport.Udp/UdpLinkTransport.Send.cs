using System.Buffers.Binary;
using System.Net.Sockets;

namespace CamCube.Transport.Udp;

/// <summary>The send path, on the event loop: batching, credit, the rate limit, sealing and room.</summary>
public sealed partial class UdpLinkTransport
{
    /// <summary>
    /// The default depth of a link's token bucket in time at the rate: timers fire in steps of a
    /// millisecond or more, and later on a busy host; tokens that accrue meanwhile are kept up to
    /// this depth, so the link keeps its rate.
    /// </summary>
    private const int RateLimitBurstMillisecondsDefault = 20;

    private static readonly TimerCallback s_onLinkTimer = static state =>
    {
        var link = (UdpLink)state!;
        link.Owner?.PostLinkTimer(link);
    };

    private byte[]? _sendBuffer;

    private static TimeSpan TimerMin => TimeSpan.FromMilliseconds(1);

    private void PostLinkTimer(UdpLink link)
    {
        if (!_stopped)
        {
            _loop.Post(this, CodeTimer, (int)link.Direction, null);
        }
    }

    private void OnTimer(UdpLink link)
    {
        link.TimerArmed = false;
        if (link.IsOutOfCredit && !link.TakeCredit() && link.StalledTimestamp != 0 &&
            _loop.TimeProvider.GetElapsedTime(link.StalledTimestamp).TotalMilliseconds >= _options.CreditTimeoutMilliseconds)
        {
            // The neighbour is gone, or its credit was lost: take what is in flight as lost, as a
            // lossy cable would, and carry on; the runtime's heartbeats judge the neighbour.
            link.ForgetInFlight();
            link.StalledTimestamp = 0;
            Interlocked.Increment(ref link.CreditTimeouts);

            // A neighbour that came back elsewhere (a new container or pod) keeps its name.
            ResolvePeerAgain(link);
        }

        FlushAndReportRoom(link);
    }

    /// <summary>
    /// Sends what the link holds, then reports room if the node found the link without room since
    /// the last report. Room is not reported after every datagram: the node pumps a link whenever it
    /// queues a packet or a service asks to be polled, so such a report would find nothing to send
    /// (and cost a poll of every service on every datagram).
    /// </summary>
    private void FlushAndReportRoom(UdpLink link)
    {
        SendBatches(link, fullOnly: false);

        // The end of the burst: what it sealed into the train leaves now, in one call.
        SendTrain();
        if (!link.IsFull && link.RoomWanted)
        {
            link.RoomWanted = false;
            _sink!.OnLinkRoom(link.Direction);
        }
    }

    /// <summary>
    /// Sends the link's waiting frames in datagrams of up to <see cref="UdpTransportOptions.BatchBytesMax"/>
    /// bytes of body, as far as credit and the rate limit allow (then arms the link's timer). With
    /// <paramref name="fullOnly"/>, leaves a last batch that is not full for the end of the burst.
    /// </summary>
    private void SendBatches(UdpLink link, bool fullOnly)
    {
        var batchBytesMax = _options.BatchBytesMax;
        while (link.Count > 0 && !_stopped)
        {
            if (fullOnly && link.PendingBodyBytes < batchBytesMax)
            {
                break;
            }

            if (link.IsOutOfCredit && !link.TakeCredit())
            {
                if (link.StalledTimestamp == 0)
                {
                    link.StalledTimestamp = _loop.TimeProvider.GetTimestamp();
                }

                ArmTimer(link, TimeSpan.FromMilliseconds(_options.CreditTimeoutMilliseconds));
                break;
            }

            link.StalledTimestamp = 0;
            var frames = 0;
            var bodyBytes = 0;
            while (frames < link.Count)
            {
                var size = UdpDatagram.LengthPrefixBytes + link.Peek(frames).Length;
                if (frames > 0 && bodyBytes + size > batchBytesMax)
                {
                    break;
                }

                bodyBytes += size;
                frames++;
            }

            if (link.Bucket is { } bucket && !bucket.TryTake(UdpDatagram.OverheadBytes + bodyBytes, out var wait))
            {
                ArmTimer(link, wait);
                break;
            }

            SendFrames(link, frames, bodyBytes);
        }
    }

    /// <summary>
    /// Seals the link's next <paramref name="frames"/> frames into one datagram and sends it, or
    /// adds it to the train, which leaves at the end of the burst (<see cref="FlushAndReportRoom"/>).
    /// </summary>
    private void SendFrames(UdpLink link, int frames, int bodyBytes)
    {
        var frameBytes = bodyBytes - (frames * UdpDatagram.LengthPrefixBytes);
        var datagram = NextDatagram(link, UdpDatagram.OverheadBytes + bodyBytes, frames, frameBytes);
        var counter = link.SendCounter++;
        UdpDatagram.WriteHeader(datagram, link.Direction, counter);
        UdpDatagram.WriteCredit(datagram, link.TakeCreditToReturn());
        var offset = UdpDatagram.FramesOffset;
        for (var i = 0; i < frames; i++)
        {
            var frame = link.Dequeue();
            BinaryPrimitives.WriteUInt16BigEndian(datagram[offset..], (ushort)frame.Length);
            offset += UdpDatagram.LengthPrefixBytes;
            // A shared header and its payload meet here, in the datagram (Packet.Share).
            frame.CopyFrameTo(datagram[offset..]);
            offset += frame.Length;
            frame.Release();
        }

        link.AddInFlight(counter);
        UdpDatagram.Seal(link.SendAead, datagram, bodyBytes);
        if (!_segmentation && TrySendDatagram(link, datagram))
        {
            CountSent(link, 1, frames, frameBytes);
        }
    }

    /// <summary>
    /// Returns credit to the neighbour on <paramref name="link"/> in a credit datagram (the highest
    /// frames counter received so far), unless a frames datagram has carried it since it fell due.
    /// </summary>
    private void SendCreditIfOwed(UdpLink link)
    {
        if (link.UncreditedDatagrams < link.CreditEveryDatagrams)
        {
            return;
        }

        var datagram = (_sendBuffer ??= new byte[_datagramBytesMax]).AsSpan(0, UdpDatagram.OverheadBytes);
        UdpDatagram.WriteHeader(datagram, link.Direction, link.SendCounter++, UdpDatagram.KindCredit);
        UdpDatagram.WriteCredit(datagram, link.TakeCreditToReturn());
        UdpDatagram.Seal(link.SendAead, datagram, 0);
        if (TrySendDatagram(link, datagram))
        {
            Interlocked.Increment(ref link.CreditDatagramsSent);
        }
    }

    private bool TrySendDatagram(UdpLink link, ReadOnlySpan<byte> datagram)
    {
        try
        {
            EnsureUnsegmented(datagram.Length);
            _socket!.SendTo(datagram, SocketFlags.None, link.PeerAddress);
            _udpLoop?.NoteSent();
            return true;
        }
        catch (SocketException)
        {
            // A UDP link may lose datagrams; the frames are gone, as on a lossy cable.
            Interlocked.Increment(ref link.SendErrors);
            return false;
        }
        catch (ObjectDisposedException) when (_stopped)
        {
            // Stopped while sending.
            return false;
        }
    }

    /// <summary>Makes the link's timer fire after <paramref name="wait"/>, unless it is armed to fire sooner.</summary>
    private void ArmTimer(UdpLink link, TimeSpan wait)
    {
        // Timers are coarse (1 ms or more); the bucket's depth keeps the tokens that accrue
        // meanwhile, so the link keeps its rate between ticks.
        if (wait < TimerMin)
        {
            wait = TimerMin;
        }

        var clock = _loop.TimeProvider;
        var due = clock.GetTimestamp() + (long)(wait.TotalSeconds * clock.TimestampFrequency);
        if (link.TimerArmed && link.TimerDueTimestamp <= due)
        {
            return;
        }

        link.TimerArmed = true;
        link.TimerDueTimestamp = due;
        link.Timer!.Change(wait, Timeout.InfiniteTimeSpan);
    }
}
