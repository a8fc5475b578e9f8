using System.Net;
using System.Net.Sockets;

namespace CamCube.Transport.Udp;

/// <summary>The loop's socket side: the transport's socket it reads, and the wake socket that unblocks it.</summary>
public sealed partial class UdpEventLoop
{
    /// <summary>The shortest wait for a timer that blocks in the socket's receive; a shorter one polls, whose timeout is exact.</summary>
    private const int ReceiveTimeoutMillisecondsMin = 20;

    /// <summary>How much sooner than the timer a receive's timeout ends, besides an eighth of the wait: a kernel tick and then some.</summary>
    private const int ReceiveTimeoutSlackMilliseconds = 5;

    private static readonly byte[] s_wakeDatagram = [0];

    private UdpLinkTransport? _receiver;
    private Socket? _socket;
    private byte[]? _receiveBuffer;
    private SocketAddress? _from;
    private int _receiveTimeoutMilliseconds;
    private bool _quiet;
    private Socket? _wakeSocket;
    private SocketAddress? _wakeSource;
    private SocketAddress? _wakeTarget;
    private long _wakeDatagramsSent;
    private long _wakeDatagramsReceived;

    /// <summary>Gets how many wake datagrams other threads have sent to unblock the loop.</summary>
    public long WakeDatagramsSent => Interlocked.Read(ref _wakeDatagramsSent);

    /// <summary>Gets how many wake datagrams the loop has read (and dropped) from its socket.</summary>
    public long WakeDatagramsReceived => Interlocked.Read(ref _wakeDatagramsReceived);

    /// <summary>Gets whether the loop is blocked on its socket now, in a receive or a poll (tests wait for it before they post).</summary>
    internal bool IsBlockedInSocket
    {
        get
        {
            lock (_gate)
            {
                return _sleep == Sleep.Socket;
            }
        }
    }

    /// <summary>Gets whether a transport's socket is attached: the loop reads it and blocks on it.</summary>
    public bool HasSocket => Volatile.Read(ref _socket) is not null;

    /// <summary>
    /// Makes the loop read <paramref name="socket"/> and hand its datagrams to <paramref name="receiver"/>
    /// (on the loop thread, from <see cref="UdpLinkTransport.Start"/>). Creates the wake socket on the
    /// first call: same family, bound to the socket's address, or to loopback if that is a wildcard.
    /// </summary>
    internal void Attach(UdpLinkTransport receiver, Socket socket)
    {
        EnsureOnLoopThread();
        if (_socket is not null)
        {
            throw new InvalidOperationException("A UDP event loop reads one transport's socket; this one has a transport already.");
        }

        var local = (IPEndPoint)socket.LocalEndPoint!;
        var address = local.Address.Equals(IPAddress.Any) ? IPAddress.Loopback
            : local.Address.Equals(IPAddress.IPv6Any) ? IPAddress.IPv6Loopback
            : local.Address;
        if (_wakeSocket is null || _wakeSocket.AddressFamily != socket.AddressFamily || !((IPEndPoint)_wakeSocket.LocalEndPoint!).Address.Equals(address))
        {
            _wakeSocket?.Dispose();
            var wake = new Socket(socket.AddressFamily, SocketType.Dgram, ProtocolType.Udp);
            wake.Bind(new IPEndPoint(address, 0));
            _wakeSource = wake.LocalEndPoint!.Serialize();
            _wakeSocket = wake;
        }

        _wakeTarget = new IPEndPoint(address, local.Port).Serialize();
        _receiveBuffer ??= GC.AllocateUninitializedArray<byte>(UdpDatagram.UdpPayloadBytesMax + 1);
        _from = new SocketAddress(socket.AddressFamily);
        _receiveTimeoutMilliseconds = socket.ReceiveTimeout;
        _receiver = receiver;
        Volatile.Write(ref _socket, socket);
    }

    /// <summary>Stops reading the transport's socket (on the loop thread, before the transport closes it); the loop blocks on its monitor from now on.</summary>
    internal void Detach(UdpLinkTransport receiver)
    {
        EnsureOnLoopThread();
        if (_receiver == receiver)
        {
            Volatile.Write(ref _socket, null);
            _receiver = null;
        }
    }

    /// <summary>
    /// Reads the socket once per turn. If <paramref name="mayBlock"/>, first spins for a reply if
    /// this turn sent (<see cref="SpinAfterSend"/>), then blocks in the socket's
    /// receive for the first datagram until a post or the next timer wakes it, and hands that one
    /// datagram over (so the work it posts runs, and a reply leaves, before the next receive call);
    /// otherwise reads what is waiting, up to <see cref="DatagramsPerTurnMax"/>, without blocking.
    /// </summary>
    private void ReceiveTurn(Socket socket, bool mayBlock)
    {
        try
        {
            if (mayBlock && SpinForReply(socket, out var datagramWaiting))
            {
                // A reply (or posted work) came while the loop spun: no wait, no wake-up.
                if (datagramWaiting)
                {
                    _quiet = false;
                    DrainSocket(socket, 1);
                }

                return;
            }

            var timeoutMilliseconds = 0;
            if (mayBlock)
            {
                lock (_gate)
                {
                    timeoutMilliseconds = BlockMillisecondsLocked();
                    if (timeoutMilliseconds != 0)
                    {
                        _sleep = Sleep.Socket;
                    }
                }
            }

            // A loop whose last wait ran out (no traffic) polls until a datagram comes: an idle
            // node then pays no timed-out receives (an exception each) and no option changes.
            var receiveTimeout = _quiet ? 0 : ReceiveTimeoutFor(timeoutMilliseconds);
            if (receiveTimeout != 0)
            {
                ReceiveBlocking(socket, receiveTimeout);
            }
            else
            {
                // Nothing to wait for, or a timer due too soon for the socket's coarse timeout:
                // the poll's timeout is exact.
                var readable = socket.Poll(timeoutMilliseconds * 1_000, SelectMode.SelectRead);
                if (timeoutMilliseconds != 0)
                {
                    lock (_gate)
                    {
                        _sleep = Sleep.None;
                    }
                }

                if (readable)
                {
                    _quiet = false;
                    DrainSocket(socket, timeoutMilliseconds != 0 ? 1 : DatagramsPerTurnMax);
                }
            }
        }
        catch (ObjectDisposedException)
        {
            // The transport closed its socket without detaching it (stopped off the loop).
            Volatile.Write(ref _socket, null);
            _receiver = null;
            lock (_gate)
            {
                _sleep = Sleep.None;
            }
        }
    }

    /// <summary>
    /// Gets the socket receive timeout to block with when the next timer is
    /// <paramref name="timeoutMilliseconds"/> away: -1 without a timer; 0 (poll instead) when it is
    /// due in less than <see cref="ReceiveTimeoutMillisecondsMin"/>; else early enough that the
    /// kernel's coarse timeout (whole ticks of 4 ms or more, an eighth late at worst) never fires
    /// after the timer is due. Woken early, the loop polls for the rest.
    /// </summary>
    private static int ReceiveTimeoutFor(int timeoutMilliseconds) => timeoutMilliseconds switch
    {
        < 0 => -1,
        < ReceiveTimeoutMillisecondsMin => 0,
        _ => timeoutMilliseconds - ReceiveTimeoutSlackMilliseconds - (timeoutMilliseconds / 8),
    };

    /// <summary>
    /// Blocks in one receive call for up to <paramref name="timeoutMilliseconds"/> (-1: no limit)
    /// and hands over the datagram it returns: one system call per datagram, where a poll before
    /// the receive takes two. The socket option is set only when the timeout differs from the last
    /// one set (at most about once a millisecond on a busy loop, as the time to the timer shrinks).
    /// </summary>
    private void ReceiveBlocking(Socket socket, int timeoutMilliseconds)
    {
        // 0 is no limit for the socket option.
        var option = timeoutMilliseconds < 0 ? 0 : timeoutMilliseconds;
        if (option != _receiveTimeoutMilliseconds)
        {
            socket.ReceiveTimeout = option;
            _receiveTimeoutMilliseconds = option;
        }

        int length;
        try
        {
            length = socket.ReceiveFrom(_receiveBuffer!, SocketFlags.None, _from!);
        }
        catch (SocketException)
        {
            // The timeout (a timer is due), or an error reported on a later receive (an ICMP
            // message); either way nothing to answer, and the next waits poll.
            length = -1;
            _quiet = true;
        }

        lock (_gate)
        {
            _sleep = Sleep.None;
        }

        if (length >= 0)
        {
            Hand(_receiveBuffer.AsSpan(0, length), _from!);
        }
    }

    private void DrainSocket(Socket socket, int datagramsMax)
    {
        var buffer = _receiveBuffer!;
        var from = _from!;
        for (var received = 0; received < datagramsMax; received++)
        {
            // (A zero-length datagram reads as none waiting; the next turn's poll finds it.)
            if (received > 0 && socket.Available == 0)
            {
                return;
            }

            int length;
            try
            {
                length = socket.ReceiveFrom(buffer, SocketFlags.None, from);
            }
            catch (SocketException)
            {
                // For example an ICMP error reported on a later receive; nothing to answer.
                return;
            }

            Hand(buffer.AsSpan(0, length), from);
        }
    }

    /// <summary>Gives a datagram to the transport, or counts and drops it if it is a wake datagram.</summary>
    private void Hand(Span<byte> datagram, SocketAddress from)
    {
        if (from.Equals(_wakeSource))
        {
            Interlocked.Increment(ref _wakeDatagramsReceived);
            return;
        }

        _receiver!.OnDatagram(datagram, from);
    }

    private void SendWake()
    {
        // Counted first, so that whoever sees the loop woken sees the wake counted.
        Interlocked.Increment(ref _wakeDatagramsSent);
        try
        {
            _wakeSocket!.SendTo(s_wakeDatagram, SocketFlags.None, _wakeTarget!);
        }
        catch (ObjectDisposedException)
        {
            // The loop stopped meanwhile.
        }
        catch (SocketException)
        {
            // Lost like any datagram; the loop still wakes at its next timer or datagram.
        }
    }

    private void CloseWakeSocket() => _wakeSocket?.Dispose();

    private void EnsureOnLoopThread()
    {
        if (!IsOnLoopThread)
        {
            throw new InvalidOperationException("Call this on the event loop's thread.");
        }
    }
}
