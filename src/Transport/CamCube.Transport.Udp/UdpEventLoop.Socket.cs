using System.Net;
using System.Net.Sockets;

namespace CamCube.Transport.Udp;

/// <summary>The loop's socket side: the transport's socket it reads, and the wake socket that unblocks it.</summary>
public sealed partial class UdpEventLoop
{
    private static readonly byte[] s_wakeDatagram = [0];

    private UdpLinkTransport? _receiver;
    private Socket? _socket;
    private byte[]? _receiveBuffer;
    private SocketAddress? _from;
    private Socket? _wakeSocket;
    private SocketAddress? _wakeSource;
    private SocketAddress? _wakeTarget;
    private long _wakeDatagramsSent;
    private long _wakeDatagramsReceived;

    /// <summary>Gets how many wake datagrams other threads have sent to unblock the loop.</summary>
    public long WakeDatagramsSent => Interlocked.Read(ref _wakeDatagramsSent);

    /// <summary>Gets how many wake datagrams the loop has read (and dropped) from its socket.</summary>
    public long WakeDatagramsReceived => Interlocked.Read(ref _wakeDatagramsReceived);

    /// <summary>Gets whether the loop is blocked in its socket's poll now (tests wait for it before they post).</summary>
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

    /// <summary>Gets whether a transport's socket is attached: the loop reads it and blocks in its poll.</summary>
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
    /// Reads the socket once per turn: if <paramref name="mayBlock"/>, blocks for the first datagram
    /// until a post or the next timer wakes it, then reads what is waiting, up to
    /// <see cref="DatagramsPerTurnMax"/>, without blocking.
    /// </summary>
    private void ReceiveTurn(Socket socket, bool mayBlock)
    {
        var timeoutMicroseconds = 0;
        if (mayBlock)
        {
            lock (_gate)
            {
                var milliseconds = BlockMillisecondsLocked();
                timeoutMicroseconds = milliseconds < 0 ? -1 : milliseconds * 1_000;
                if (milliseconds != 0)
                {
                    _sleep = Sleep.Socket;
                }
            }
        }

        var blocked = timeoutMicroseconds != 0;
        try
        {
            var readable = socket.Poll(timeoutMicroseconds, SelectMode.SelectRead);
            if (blocked)
            {
                lock (_gate)
                {
                    _sleep = Sleep.None;
                }
            }

            if (readable)
            {
                // After a wait, the first datagram's work runs before anything else is read (a
                // reply leaves before the next receive call); a busy loop reads what is waiting.
                DrainSocket(socket, blocked ? 1 : DatagramsPerTurnMax);
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

            if (from.Equals(_wakeSource))
            {
                Interlocked.Increment(ref _wakeDatagramsReceived);
                continue;
            }

            _receiver!.OnDatagram(buffer.AsSpan(0, length), from);
        }
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
