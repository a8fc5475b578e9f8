using System.Net;
using System.Net.Sockets;

namespace CamCube.Transport.Udp;

/// <summary>Starting and stopping: addresses, security checks, keys, the socket, and who reads it (the loop or a receive thread).</summary>
public sealed partial class UdpLinkTransport
{
    /// <inheritdoc/>
    /// <exception cref="ArgumentNullException">The sink is null.</exception>
    /// <exception cref="InvalidOperationException">
    /// The transport was started before; there is no cluster key and <see cref="UdpTransportOptions.AllowInsecure"/>
    /// is not set; <see cref="UdpTransportOptions.AllowInsecure"/> is set but an address is not loopback; a
    /// neighbour's name does not resolve; or the local port cannot be bound (for example, it is in use).
    /// </exception>
    public void Start(ITransportSink sink)
    {
        ArgumentNullException.ThrowIfNull(sink);
        if (_socket is not null || _stopped)
        {
            throw new InvalidOperationException("A UDP transport starts once; create a new one to start again.");
        }

        if (_loop is UdpEventLoop { IsOnLoopThread: false })
        {
            throw new InvalidOperationException("A UDP transport on a UdpEventLoop starts on that loop's thread (post the start to the loop).");
        }

        if (_options.ClusterKey is null && !_options.AllowInsecure)
        {
            throw new InvalidOperationException(
                $"Node {Self} has no cluster key, so its UDP transport refuses to start. {ClusterKey.HowToProvide} " +
                "Only for tests on one host, the insecure option (AllowInsecure, loopback addresses only) runs without a key.");
        }

        var bind = _options.BindEndPoint ?? _options.Addressing.GetBindEndPoint(Shape, Self);
        var peers = ResolvePeers(bind.AddressFamily);
        if (_options.AllowInsecure)
        {
            EnsureLoopback(bind, peers);
        }

        var socket = Bind(bind);
        try
        {
            CreateLinks(peers, socket.ReceiveBufferSize);
            EnableSegmentationIfSupported(socket);

            // A UdpEventLoop reads the socket itself: no receive thread, no hand-off.
            (_loop as UdpEventLoop)?.Attach(this, socket);
        }
        catch
        {
            socket.Dispose();
            for (var i = 0; i < _links.Length; i++)
            {
                _links[i]?.Dispose();
                _links[i] = null;
            }

            throw;
        }

        _sink = sink;
        _socket = socket;
        if (_loop is not UdpEventLoop)
        {
            _receiveThread = new Thread(ReceiveLoop)
            {
                IsBackground = true,
                Name = $"udp-receive {Self}",
            };
            _receiveThread.Start();
        }

        foreach (var link in _links)
        {
            if (link is not null)
            {
                _loop.Post(this, CodeRoom, (int)link.Direction, null);
            }
        }
    }

    /// <inheritdoc/>
    /// <remarks>Call on the event loop (or after it has stopped). Closes the socket (a <see cref="UdpEventLoop"/> stops reading it), waits for the receive thread if there is one, and releases every frame the transport holds; frames already posted to the loop are released when the loop runs them.</remarks>
    public void Stop()
    {
        if (_stopped)
        {
            return;
        }

        _stopped = true;
        if (_loop is UdpEventLoop { IsOnLoopThread: true } udpLoop)
        {
            udpLoop.Detach(this);
        }

        _socket?.Dispose();
        if (_receiveThread is not null && Environment.CurrentManagedThreadId != _receiveThread.ManagedThreadId)
        {
            _receiveThread.Join();
        }

        for (var i = 0; i < _links.Length; i++)
        {
            _links[i]?.Dispose();
        }
    }

    private IPEndPoint?[] ResolvePeers(AddressFamily family)
    {
        var peers = new IPEndPoint?[LinkDirections.Count];
        for (var d = 0; d < LinkDirections.Count; d++)
        {
            var direction = (LinkDirection)d;
            if (!Shape.HasLink(direction))
            {
                continue;
            }

            var neighbor = Shape.Neighbor(Self, direction);
            try
            {
                peers[d] = _options.Addressing.Resolve(Shape, neighbor, family, _options.HostResolver);
            }
            catch (SocketException ex)
            {
                throw new InvalidOperationException(
                    $"Node {Self} cannot resolve '{_options.Addressing.GetHost(Shape, neighbor)}', the address of its {direction.ToShortName()} neighbour {neighbor}: {ex.Message}", ex);
            }
        }

        return peers;
    }

    private void EnsureLoopback(IPEndPoint bind, IPEndPoint?[] peers)
    {
        if (!IPAddress.IsLoopback(bind.Address))
        {
            throw new InvalidOperationException(
                $"The insecure option is refused: node {Self} would bind {bind}, which is not a loopback address. {ClusterKey.HowToProvide}");
        }

        foreach (var peer in peers)
        {
            if (peer is not null && !IPAddress.IsLoopback(peer.Address))
            {
                throw new InvalidOperationException(
                    $"The insecure option is refused: node {Self} has a neighbour at {peer}, which is not a loopback address. {ClusterKey.HowToProvide}");
            }
        }
    }

    private Socket Bind(IPEndPoint bind)
    {
        var socket = new Socket(bind.AddressFamily, SocketType.Dgram, ProtocolType.Udp);
        try
        {
            socket.SendBufferSize = _options.SocketBufferBytes;
            socket.ReceiveBufferSize = _options.SocketBufferBytes;
            socket.Bind(bind);
            return socket;
        }
        catch (SocketException ex)
        {
            socket.Dispose();
            var hint = ex.SocketErrorCode == SocketError.AddressAlreadyInUse
                ? "another process (perhaps another node) already uses that port; stop it or choose another base port"
                : ex.Message;
            throw new InvalidOperationException($"Node {Self} cannot bind UDP {bind}: {hint}.", ex);
        }
    }

    private void CreateLinks(IPEndPoint?[] peers, int receiveBufferBytes)
    {
        // Credit for what the socket's receive buffer holds when every link is full, counting
        // each datagram twice for the kernel's bookkeeping; the neighbours' buffers are alike.
        var linkCount = Math.Max(1, Shape.LinkCount);
        var datagramsInFlightMax = Math.Min(
            _options.DatagramsInFlightMax,
            Math.Max(UdpLink.CreditEveryDatagramsMin * 2, receiveBufferBytes / (linkCount * _datagramBytesMax * 2)));
        var clusterKey = _options.ClusterKey is { } key ? key.Bytes : LinkKeys.InsecureClusterKey;

        // The counter starts at the clock in 100 ns ticks, so a restarted node never reuses a
        // nonce under the same key, and its neighbours' replay windows accept it at once. This is
        // security, not logic: the wall clock is used even under a virtual clock, which could
        // start a restarted node at the same instant and repeat its nonces.
        var counterStart = (ulong)Math.Max(TimeProvider.System.GetUtcNow().UtcTicks, _loop.TimeProvider.GetUtcNow().UtcTicks);
        var burstBytes = _options.RateLimitBurstBytes > 0
            ? Math.Max(_options.RateLimitBurstBytes, _datagramBytesMax)
            : (int)Math.Min(int.MaxValue, Math.Max(2L * _datagramBytesMax, _options.RateLimitBitsPerSecond / 8 / 1000 * RateLimitBurstMillisecondsDefault));
        for (var d = 0; d < LinkDirections.Count; d++)
        {
            if (peers[d] is not { } peer)
            {
                continue;
            }

            var direction = (LinkDirection)d;
            var neighbor = Shape.Neighbor(Self, direction);

            // On an axis of size 2 only the + link exists, so the neighbour sends to us on its + link too.
            var incoming = Shape[direction.AxisOf()] == 2 ? direction : direction.Opposite();
            var sendKey = LinkKeys.Derive(clusterKey, Shape, Self, direction, neighbor);
            var receiveKey = LinkKeys.Derive(clusterKey, Shape, neighbor, incoming, Self);
            var link = new UdpLink(direction, incoming, peer, sendKey, receiveKey, _options.FramesInFlightMax, datagramsInFlightMax)
            {
                SendCounter = counterStart,
            };
            if (_options.RateLimitBitsPerSecond > 0)
            {
                link.Bucket = new TokenBucket(_loop.TimeProvider, _options.RateLimitBitsPerSecond, burstBytes);
            }

            link.Timer = _loop.TimeProvider.CreateTimer(s_onLinkTimer, link, Timeout.InfiniteTimeSpan, Timeout.InfiniteTimeSpan);

            link.Owner = this;
            _links[d] = link;
        }
    }
}
