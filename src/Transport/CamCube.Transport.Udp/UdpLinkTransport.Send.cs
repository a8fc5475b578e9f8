using System.Buffers.Binary;
using System.Net.Sockets;

namespace CamCube.Transport.Udp;

/// <summary>The send path, on the event loop: batching, the rate limit, sealing and room.</summary>
public sealed partial class UdpLinkTransport
{
    /// <summary>
    /// The default depth of a link's token bucket in time at the rate: timers fire in steps of a
    /// millisecond or more, and later on a busy host; tokens that accrue meanwhile are kept up to
    /// this depth, so the link keeps its rate.
    /// </summary>
    private const int RateLimitBurstMillisecondsDefault = 20;

    private static readonly TimerCallback s_onRateTimer = static state =>
    {
        var link = (UdpLink)state!;
        link.Owner?.PostRateTimer(link);
    };

    private byte[]? _sendBuffer;

    private void PostRateTimer(UdpLink link)
    {
        if (!_stopped)
        {
            _loop.Post(this, CodeRateTimer, (int)link.Direction, null);
        }
    }

    private void FlushAndReportRoom(UdpLink link)
    {
        var sent = SendBatches(link, fullOnly: false);
        if (!link.IsFull && (sent || link.RoomWanted))
        {
            link.RoomWanted = false;
            _sink!.OnLinkRoom(link.Direction);
        }
    }

    /// <summary>
    /// Sends the link's waiting frames in datagrams of up to <see cref="UdpTransportOptions.BatchBytesMax"/>
    /// bytes of body, as far as the rate limit allows (then arms the link's timer). With
    /// <paramref name="fullOnly"/>, leaves a last batch that is not full for the end of the burst.
    /// Returns whether it sent anything.
    /// </summary>
    private bool SendBatches(UdpLink link, bool fullOnly)
    {
        var sent = false;
        var batchBytesMax = _options.BatchBytesMax;
        while (link.Count > 0 && !_stopped)
        {
            if (fullOnly && link.PendingBodyBytes < batchBytesMax)
            {
                break;
            }

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
                ArmRateTimer(link, wait);
                break;
            }

            SendDatagram(link, frames, bodyBytes);
            sent = true;
        }

        return sent;
    }

    private void SendDatagram(UdpLink link, int frames, int bodyBytes)
    {
        var datagram = _sendBuffer ??= new byte[_datagramBytesMax];
        var counter = link.SendCounter++;
        UdpDatagram.WriteHeader(datagram, link.Direction, counter);
        var offset = UdpDatagram.HeaderSizeBytes;
        long frameBytes = 0;
        for (var i = 0; i < frames; i++)
        {
            var frame = link.Dequeue();
            BinaryPrimitives.WriteUInt16BigEndian(datagram.AsSpan(offset), (ushort)frame.Length);
            offset += UdpDatagram.LengthPrefixBytes;
            frame.Frame.CopyTo(datagram.AsSpan(offset));
            offset += frame.Length;
            frameBytes += frame.Length;
            frame.Release();
        }

        var length = UdpDatagram.Seal(link.SendAead, datagram, bodyBytes);
        try
        {
            _socket!.SendTo(datagram.AsSpan(0, length), SocketFlags.None, link.PeerAddress);
            Interlocked.Increment(ref link.DatagramsSent);
            Interlocked.Add(ref link.FramesSent, frames);
            Interlocked.Add(ref link.FrameBytesSent, frameBytes);
        }
        catch (SocketException)
        {
            // A UDP link may lose datagrams; the frames are gone, as on a lossy cable.
            Interlocked.Increment(ref link.SendErrors);
        }
        catch (ObjectDisposedException) when (_stopped)
        {
            // Stopped while sending.
        }
    }

    private static void ArmRateTimer(UdpLink link, TimeSpan wait)
    {
        if (link.TimerArmed)
        {
            return;
        }

        // Timers are coarse (1 ms or more); the bucket's depth keeps the tokens that accrue
        // meanwhile, so the link keeps its rate between ticks.
        link.TimerArmed = true;
        link.RateTimer!.Change(wait < RateTimerMin ? RateTimerMin : wait, Timeout.InfiniteTimeSpan);
    }

    private static TimeSpan RateTimerMin => TimeSpan.FromMilliseconds(1);
}
