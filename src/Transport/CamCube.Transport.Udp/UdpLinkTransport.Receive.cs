using System.Buffers.Binary;
using System.Net;
using System.Net.Sockets;

namespace CamCube.Transport.Udp;

/// <summary>The receive path, on the receive thread or the node's <see cref="UdpEventLoop"/>: identify, check, open, split and post.</summary>
public sealed partial class UdpLinkTransport
{
    private long _receiveAllocatedBytes;

    /// <summary>Gets the bytes the receive path has allocated while handling datagrams (on the receive thread or the loop); tests check it stays put in steady state.</summary>
    internal long ReceiveAllocatedBytes => Interlocked.Read(ref _receiveAllocatedBytes);

    /// <summary>Handles one datagram read from the socket, on the receive thread or on a <see cref="UdpEventLoop"/>.</summary>
    internal void OnDatagram(Span<byte> datagram, SocketAddress from)
    {
        var before = GC.GetAllocatedBytesForCurrentThread();
        try
        {
            HandleDatagram(datagram, from);
        }
#pragma warning disable CA1031 // Hostile input must never end the receive thread or the loop.
        catch (Exception)
#pragma warning restore CA1031
        {
            Interlocked.Increment(ref _droppedMalformed);
        }

        var allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        if (allocated != 0)
        {
            Interlocked.Add(ref _receiveAllocatedBytes, allocated);
        }
    }

    /// <summary>The receive thread of the two-thread mode (any loop other than a <see cref="UdpEventLoop"/>).</summary>
    private void ReceiveLoop()
    {
        var socket = _socket!;

        // One buffer the size of the largest UDP payload, so that an oversized datagram arrives
        // whole and is recognised (and counted) rather than silently truncated by the kernel.
        var buffer = GC.AllocateUninitializedArray<byte>(UdpDatagram.UdpPayloadBytesMax + 1);
        var from = new SocketAddress(socket.AddressFamily);
        while (!_stopped)
        {
            int length;
            try
            {
                length = socket.ReceiveFrom(buffer, SocketFlags.None, from);
            }
            catch (SocketException) when (!_stopped)
            {
                // For example an ICMP error reported on a later receive; nothing to answer.
                continue;
            }
            catch (SocketException)
            {
                return;
            }
            catch (ObjectDisposedException)
            {
                return;
            }

            OnDatagram(buffer.AsSpan(0, length), from);
        }
    }

    /// <summary>
    /// Handles one datagram as if the socket had read it from <paramref name="from"/>: checks it in the
    /// order that costs least for hostile input (sender, header, replay window, tag, frames), counts what
    /// it drops, and posts its frames or credit to the loop. The socket's receive path calls it; tools
    /// that drive the receive path without a socket (the fuzz driver) call it too. An exception from it
    /// is a bug: the socket's path counts one as a malformed datagram, here it reaches the caller.
    /// </summary>
    /// <param name="datagram">The datagram as it came off the wire; opened (decrypted) in place.</param>
    /// <param name="from">The address the datagram came from.</param>
    public void HandleDatagram(Span<byte> datagram, SocketAddress from)
    {
        ArgumentNullException.ThrowIfNull(from);
        if (!IsNeighbourAddress(from))
        {
            Interlocked.Increment(ref _droppedUnknownSender);
            return;
        }

        if (datagram.Length < UdpDatagram.OverheadBytes ||
            datagram.Length > _datagramBytesMax ||
            datagram[UdpDatagram.MagicOffset] != UdpDatagram.Magic ||
            datagram[UdpDatagram.VersionOffset] != UdpDatagram.Version ||
            datagram[UdpDatagram.KindOffset] > UdpDatagram.KindCredit)
        {
            Interlocked.Increment(ref _droppedMalformed);
            return;
        }

        var link = FindLink(from, (LinkDirection)datagram[UdpDatagram.SenderLinkOffset]);
        if (link is null)
        {
            Interlocked.Increment(ref _droppedUnknownSender);
            return;
        }

        var counter = BinaryPrimitives.ReadUInt64BigEndian(datagram[UdpDatagram.CounterOffset..]);
        if (!link.Replay.IsFresh(counter))
        {
            Interlocked.Increment(ref _droppedReplay);
            return;
        }

        if (!UdpDatagram.TryOpen(link.ReceiveAead, datagram))
        {
            Interlocked.Increment(ref _droppedBadTag);
            return;
        }

        var frames = datagram[UdpDatagram.FramesOffset..^UdpDatagram.TagSizeBytes];
        var isCredit = datagram[UdpDatagram.KindOffset] == UdpDatagram.KindCredit;
        if (isCredit ? frames.Length != 0 : UdpDatagram.CountFrames(frames, _frameBytesMax) <= 0)
        {
            Interlocked.Increment(ref _droppedMalformed);
            return;
        }

        // Only an authenticated datagram moves the window, so forged counters cannot push it on.
        if (!link.Replay.TryAccept(counter))
        {
            Interlocked.Increment(ref _droppedReplay);
            return;
        }

        // Every datagram returns credit, frames datagrams too (so a ping-pong needs no credit
        // datagrams). The loop takes it at once only if frames wait for it; otherwise the next
        // send takes it. Read on another thread, the queue is the loop's, so that always posts.
        if (link.Credit(BinaryPrimitives.ReadUInt64BigEndian(datagram[UdpDatagram.CreditOffset..])) &&
            (_loop is not UdpEventLoop { IsOnLoopThread: true } || link.Count > 0))
        {
            _loop.Post(this, CodeCredit, (int)link.Direction, null);
        }

        if (isCredit)
        {
            return;
        }

        // Counted before the frames are posted, so whoever sees a frame sees its datagram counted.
        Interlocked.Increment(ref link.DatagramsReceived);
        PostFrames(link, frames, creditDue: link.Received(counter));
    }

    /// <summary>
    /// Posts each frame to the loop. With <paramref name="creditDue"/>, the last one returns credit
    /// once the loop has taken it: the credit datagram is posted from the loop behind whatever that
    /// frame's delivery sent (a reply leaves first).
    /// </summary>
    private void PostFrames(UdpLink link, ReadOnlySpan<byte> body, bool creditDue)
    {
        var offset = 0;
        while (offset < body.Length)
        {
            int length = BinaryPrimitives.ReadUInt16BigEndian(body[offset..]);
            offset += UdpDatagram.LengthPrefixBytes;
            var packet = _pool.Rent();
            body.Slice(offset, length).CopyTo(packet.Buffer);
            packet.Length = length;
            packet.ArrivalLink = link.Direction;
            offset += length;
            Interlocked.Increment(ref link.FramesReceived);
            Interlocked.Add(ref link.FrameBytesReceived, length);
            _loop.Post(this, creditDue && offset == body.Length ? CodeReceivedThenCredit : CodeReceived, (int)link.Direction, packet);
        }
    }

    private bool IsNeighbourAddress(SocketAddress from)
    {
        foreach (var link in _links)
        {
            if (link is not null && link.PeerAddress.Equals(from))
            {
                return true;
            }
        }

        return false;
    }

    private UdpLink? FindLink(SocketAddress from, LinkDirection senderLink)
    {
        foreach (var link in _links)
        {
            if (link is not null && link.IncomingSenderLink == senderLink && link.PeerAddress.Equals(from))
            {
                return link;
            }
        }

        return null;
    }
}
