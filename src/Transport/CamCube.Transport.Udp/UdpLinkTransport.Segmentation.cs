using System.Net.Sockets;

namespace CamCube.Transport.Udp;

/// <summary>
/// Segmentation offload on the send path: a run of datagrams to one neighbour leaves in one
/// system call (<see cref="DatagramTrain"/>), where the kernel's work per datagram (a buffer, the
/// route, the loopback or device queue, the receive path's softirq) is done once for the run.
/// </summary>
public sealed partial class UdpLinkTransport
{
    // Linux: setsockopt(fd, SOL_UDP, UDP_SEGMENT, &size, sizeof(int)) (linux/udp.h).
    private const int SolUdp = 17;
    private const int UdpSegmentOption = 103;

    private readonly byte[] _segmentOptionValue = new byte[sizeof(int)];
    private DatagramTrain? _train;
    private bool _segmentation;
    private int _socketSegmentBytes;
    private long _segmentedSends;
    private long _segmentedDatagrams;

    /// <summary>
    /// Gets whether runs of datagrams to a neighbour go out in one system call with UDP
    /// segmentation offload: <see cref="UdpTransportOptions.SegmentationOffload"/> is set, the
    /// kernel has it (Linux 4.18 and later), and no segmented send has been refused since (the
    /// transport then sends one datagram per call for good, for example when its datagrams are
    /// larger than the route's MTU).
    /// </summary>
    public bool UsesSegmentationOffload => Volatile.Read(ref _segmentation);

    /// <summary>Gets how many system calls sent more than one datagram with segmentation offload.</summary>
    public long SegmentedSends => Interlocked.Read(ref _segmentedSends);

    /// <summary>Gets how many datagrams those system calls carried.</summary>
    public long SegmentedDatagrams => Interlocked.Read(ref _segmentedDatagrams);

    /// <summary>Turns segmentation on at start if the options ask for it and the socket takes the option.</summary>
    private void EnableSegmentationIfSupported(Socket socket)
    {
        if (!_options.SegmentationOffload || !OperatingSystem.IsLinux())
        {
            return;
        }

        try
        {
            SetSegmentBytes(socket, 0);
            _train = new DatagramTrain();
            Volatile.Write(ref _segmentation, true);
        }
        catch (SocketException)
        {
            // A kernel without UDP_SEGMENT: one datagram per call.
        }
    }

    private void SetSegmentBytes(Socket socket, int bytes)
    {
        BitConverter.TryWriteBytes(_segmentOptionValue, bytes);
        socket.SetRawSocketOption(SolUdp, UdpSegmentOption, _segmentOptionValue);
        _socketSegmentBytes = bytes;
    }

    /// <summary>
    /// Gets where the next frames datagram of <paramref name="length"/> bytes for
    /// <paramref name="link"/> is written: the end of the train (sent first if the datagram does not
    /// fit it), or the send buffer without segmentation.
    /// </summary>
    private Span<byte> NextDatagram(UdpLink link, int length, int frames, long frameBytes)
    {
        if (_segmentation && _train is { } train)
        {
            if (!train.CanAppend(link, length))
            {
                SendTrain();
            }

            // (Sending the train may have turned segmentation off.)
            if (_segmentation)
            {
                return train.Append(link, length, frames, frameBytes);
            }
        }

        return (_sendBuffer ??= new byte[_datagramBytesMax]).AsSpan(0, length);
    }

    /// <summary>Sends the datagrams the train holds: one in a plain send, more in one segmented send, or one by one if that is refused.</summary>
    private void SendTrain()
    {
        if (_train is not { Count: > 0 } train)
        {
            return;
        }

        var link = train.Link!;
        try
        {
            if (train.Count > 1 && TrySendSegmented(train, link))
            {
                var (frames, frameBytes) = train.TotalFrames();
                CountSent(link, train.Count, frames, frameBytes);
                Interlocked.Increment(ref _segmentedSends);
                Interlocked.Add(ref _segmentedDatagrams, train.Count);
                return;
            }

            var sent = 0;
            for (var i = 0; i < train.Count; i++)
            {
                if (TrySendDatagram(link, train.Datagram(i)))
                {
                    var (frames, frameBytes) = train.FramesOf(i);
                    CountSent(link, 1, frames, frameBytes);
                    sent++;
                }
            }

            if (train.Count > 1 && sent == train.Count)
            {
                // The same datagrams went one by one: the segmented form was what the route
                // refused (a segment above its MTU, or a device that cannot checksum it).
                Volatile.Write(ref _segmentation, false);
            }
        }
        finally
        {
            train.Clear();
        }
    }

    private bool TrySendSegmented(DatagramTrain train, UdpLink link)
    {
        try
        {
            if (_socketSegmentBytes != train.SegmentBytes)
            {
                SetSegmentBytes(_socket!, train.SegmentBytes);
            }

            _socket!.SendTo(train.Bytes, SocketFlags.None, link.PeerAddress);
            _udpLoop?.NoteSent();
            return true;
        }
        catch (SocketException)
        {
            // The datagrams go one by one next, with no segment size set: with one set, Linux
            // checks a single datagram as a segmented send too.
            try
            {
                SetSegmentBytes(_socket!, 0);
            }
            catch (SocketException)
            {
                // Then the single sends fail as well and are counted as send errors.
            }

            return false;
        }
        catch (ObjectDisposedException) when (_stopped)
        {
            return false;
        }
    }

    /// <summary>Clears the socket's segment size before a single datagram larger than it (which the kernel would otherwise cut).</summary>
    private void EnsureUnsegmented(int length)
    {
        if (_socketSegmentBytes != 0 && length > _socketSegmentBytes)
        {
            SetSegmentBytes(_socket!, 0);
        }
    }

    private static void CountSent(UdpLink link, int datagrams, int frames, long frameBytes)
    {
        Interlocked.Add(ref link.DatagramsSent, datagrams);
        Interlocked.Add(ref link.FramesSent, frames);
        Interlocked.Add(ref link.FrameBytesSent, frameBytes);
    }
}
