using CamCube.Packets;

namespace CamCube.Transport.Simulation;

/// <summary>
/// The links of a simulated torus (camcubeos 4.1): every server has a link in each direction
/// its shape has one, each direction of a link with its own bandwidth and a finite transmit queue,
/// and a propagation delay to the neighbour. A frame occupies the link for its serialization time,
/// <c>(length + overhead) * 8 / bandwidth</c>; when it has left, the link has room again
/// (<see cref="ITransportSink.OnLinkRoom"/>), and the frame reaches the neighbour's opposite link
/// after the propagation delay (on an axis of size 2, where only the + link exists, both ends use
/// the + link). Each server reaches the network through its <see cref="SimulatedLinkTransport"/>.
/// </summary>
/// <remarks>
/// <para>State is kept in flat arrays indexed by link endpoint (<c>server * 6 + direction</c>)
/// and shared by all servers, with one immutable <see cref="SimulatedNetworkOptions"/>: per
/// server, about 6 * (72 + 16 * <see cref="SimulatedNetworkOptions.FramesQueuedMax"/>) bytes
/// plus its transport object, so 8,000 servers take a few megabytes.</para>
/// <para>Events per frame and hop: one, its arrival. A frame's departure time is known when it is
/// queued (links are FIFO at a fixed rate), so its arrival is scheduled then, and the queue takes
/// departed frames out lazily. Room is an event of its own, at the head frame's departure, only
/// when the node wants it: always for a node that did not enable room on request
/// (<see cref="ILinkRoomRequests"/>), else only after it asked. A flushed frame's arrival is cancelled.</para>
/// <para>All events run on the <see cref="SimulationEngine"/>; sink calls happen inside them,
/// which is on every node's loop. Failures: see <see cref="KillServer"/> and <see cref="CutLink"/>.</para>
/// </remarks>
public sealed partial class SimulatedNetwork : ILoopWork
{
    private const int LinksPerServer = LinkDirections.Count;

    private readonly SimulationEngine _engine;
    private readonly LinkEndpoint[] _endpoints;
    private readonly int[] _peers;
    private readonly QueuedFrame[] _frames;
    private readonly SimulatedLinkTransport?[] _transports;
    private readonly bool[] _alive;
    private readonly ServerReceiver[] _receivers;
    private readonly int _queueMax;
    private readonly int _mtuBytes;
    private readonly long _propagationNanoseconds;
    private readonly long _nanosecondsPerByte;
    private readonly int _frameOverheadBytes;

    /// <summary>Creates the network of a torus of <paramref name="shape"/>, every server alive and every link up.</summary>
    /// <param name="engine">The engine that runs the network's events and every node's loop.</param>
    /// <param name="shape">The torus.</param>
    /// <param name="options">The link parameters; <see cref="SimulatedNetworkOptions.Default"/> if null.</param>
    /// <exception cref="ArgumentOutOfRangeException">An option is out of range, or the torus is too large to simulate.</exception>
    public SimulatedNetwork(SimulationEngine engine, TorusShape shape, SimulatedNetworkOptions? options = null)
    {
        ArgumentNullException.ThrowIfNull(engine);
        if (!shape.IsValid)
        {
            throw new ArgumentOutOfRangeException(nameof(shape), shape, "The shape must be a valid torus, not default.");
        }

        options ??= SimulatedNetworkOptions.Default;
        options.Validate();
        if (shape.ServerCount * LinksPerServer * options.FramesQueuedMax > Array.MaxLength)
        {
            throw new ArgumentOutOfRangeException(nameof(shape), shape, $"A simulated torus has at most {Array.MaxLength / LinksPerServer / options.FramesQueuedMax} servers with these options.");
        }

        _engine = engine;
        Shape = shape;
        Options = options;
        ServerCount = (int)shape.ServerCount;
        _queueMax = options.FramesQueuedMax;
        _mtuBytes = options.MtuBytes;
        _propagationNanoseconds = options.PropagationDelayNanoseconds;
        _frameOverheadBytes = options.FrameOverheadBytes;
        var bitNanoseconds = 8 * SimulationEngine.NanosecondsPerSecond;
        _nanosecondsPerByte = bitNanoseconds % options.BandwidthBitsPerSecond == 0 ? bitNanoseconds / options.BandwidthBitsPerSecond : 0;
        _endpoints = new LinkEndpoint[ServerCount * LinksPerServer];
        _peers = new int[_endpoints.Length];
        _frames = new QueuedFrame[_endpoints.Length * _queueMax];
        _transports = new SimulatedLinkTransport?[ServerCount];
        _alive = new bool[ServerCount];
        _receivers = new ServerReceiver[ServerCount];
        Array.Fill(_alive, true);
        WirePeers();
        AliveServerCount = ServerCount;
    }

    /// <summary>Gets the engine that runs this network.</summary>
    public SimulationEngine Engine => _engine;

    /// <summary>Gets the torus.</summary>
    public TorusShape Shape { get; }

    /// <summary>Gets the link parameters, shared by every link.</summary>
    public SimulatedNetworkOptions Options { get; }

    /// <summary>Gets the number of servers.</summary>
    public int ServerCount { get; }

    /// <summary>Gets the number of servers that are alive (not killed).</summary>
    public int AliveServerCount { get; private set; }

    /// <summary>Gets how many frames the transports accepted to send.</summary>
    public long FramesSent { get; private set; }

    /// <summary>Gets how many frames reached a neighbour and were handed to its node.</summary>
    public long FramesDelivered { get; private set; }

    /// <summary>Gets how many bytes those frames held, overhead excluded.</summary>
    public long BytesDelivered { get; private set; }

    /// <summary>
    /// Gets how many accepted frames were lost: flushed from a queue when its link went down, or
    /// arriving over a link that was cut meanwhile or at a server that was down or not started.
    /// </summary>
    public long FramesDropped { get; private set; }

    /// <summary>
    /// Gets the transport of the server at <paramref name="coordinate"/>: the current one, which
    /// after <see cref="KillServer"/> is the failed one until <see cref="RestartServer"/> makes a new one.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The coordinate is outside the torus.</exception>
    public SimulatedLinkTransport GetTransport(Coordinate coordinate) => GetTransport(IndexOf(coordinate));

    /// <summary>Gets the transport of the server with dense index <paramref name="serverIndex"/> (see <see cref="TorusShape.IndexOf"/>).</summary>
    /// <exception cref="ArgumentOutOfRangeException">The index is outside the torus.</exception>
    public SimulatedLinkTransport GetTransport(int serverIndex)
    {
        ArgumentOutOfRangeException.ThrowIfGreaterThanOrEqual((uint)serverIndex, (uint)ServerCount, nameof(serverIndex));
        return _transports[serverIndex] ??= new SimulatedLinkTransport(this, serverIndex, Shape.CoordinateAt(serverIndex));
    }

    /// <summary>Gets the counters and state of the end of the link in <paramref name="link"/> at <paramref name="coordinate"/>.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The coordinate is outside the torus or the shape has no such link.</exception>
    public LinkStatistics GetLinkStatistics(Coordinate coordinate, LinkDirection link)
    {
        var e = EndpointOf(IndexOf(coordinate), link);
        ref var endpoint = ref _endpoints[e];
        Advance(e, ref endpoint);
        return new LinkStatistics(endpoint.FramesTransmitted, endpoint.BytesTransmitted, endpoint.FramesDelivered, endpoint.IsUp && _alive[e / LinksPerServer]);
    }

    /// <inheritdoc/>
    void ILoopWork.Execute(int code, int argument, Packet? packet) => RunEvent(code, argument, packet);

    /// <summary>Runs one of the network's events (the engine calls it directly, without interface dispatch).</summary>
    internal void RunEvent(int code, int argument, Packet? packet)
    {
        switch (code)
        {
            case SimulationEventCodes.Arrival:
                OnArrival(argument, packet!);
                break;
            case SimulationEventCodes.RoomDue:
                OnRoomDue(argument);
                break;
            default:
                OnLinkEvent(code, argument);
                break;
        }
    }

    internal bool HasRoom(SimulatedLinkTransport transport, LinkDirection link)
    {
        if (!transport.IsRunning || (uint)link >= LinksPerServer)
        {
            return false;
        }

        var e = (transport.ServerIndex * LinksPerServer) + (int)link;
        ref var endpoint = ref _endpoints[e];
        if (_peers[e] < 0 || !endpoint.IsUp)
        {
            return false;
        }

        Advance(e, ref endpoint);
        return endpoint.QueueCount < _queueMax;
    }

    internal void RequestRoom(SimulatedLinkTransport transport, LinkDirection link)
    {
        if (!transport.IsRunning || (uint)link >= LinksPerServer)
        {
            return;
        }

        var e = (transport.ServerIndex * LinksPerServer) + (int)link;
        if (_peers[e] < 0)
        {
            return;
        }

        ref var endpoint = ref _endpoints[e];
        endpoint.RoomRequested = true;
        Advance(e, ref endpoint);
        ArmRoom(e, ref endpoint);
    }

    internal bool TrySend(SimulatedLinkTransport transport, LinkDirection link, Packet frame)
    {
        ArgumentNullException.ThrowIfNull(frame);
        if (frame.Length > _mtuBytes)
        {
            throw new ArgumentException($"A frame of {frame.Length} bytes does not fit the link MTU of {_mtuBytes} bytes.", nameof(frame));
        }

        if (!HasRoom(transport, link))
        {
            return false;
        }

        // HasRoom took out the frames that left: the link is free from the last queued one's departure, or now.
        var e = (transport.ServerIndex * LinksPerServer) + (int)link;
        ref var endpoint = ref _endpoints[e];
        var baseSlot = e * _queueMax;
        var start = endpoint.QueueCount > 0 ? endpoint.TailDepartureNanoseconds : _engine.ElapsedNanoseconds;

        var departure = start + SerializationNanoseconds(frame.Length);
        var slot = endpoint.QueueHead + endpoint.QueueCount;
        var i = baseSlot + (slot >= _queueMax ? slot - _queueMax : slot);
        ref var queued = ref _frames[i];
        queued.DepartureNanoseconds = departure;
        queued.Length = frame.Length;
        queued.ArrivalSlot = _engine.ScheduleAt(departure + _propagationNanoseconds, this, SimulationEventCodes.Arrival, _peers[e], frame);
        endpoint.QueueCount++;
        endpoint.QueuedBytes += frame.Length;
        endpoint.TailDepartureNanoseconds = departure;
        FramesSent++;
        ArmRoom(e, ref endpoint);
        return true;
    }

    internal void OnStarted(SimulatedLinkTransport transport)
    {
        if (ReferenceEquals(_transports[transport.ServerIndex], transport))
        {
            _receivers[transport.ServerIndex].Sink = transport.Sink;
        }

        // A started node learns which of its links are usable: room on the up ones, down for the rest.
        var first = transport.ServerIndex * LinksPerServer;
        for (var e = first; e < first + LinksPerServer; e++)
        {
            ref var endpoint = ref _endpoints[e];
            endpoint.RoomOnRequest = transport.RoomOnRequest;
            endpoint.RoomRequested = !transport.RoomOnRequest;
            if (_peers[e] >= 0)
            {
                _engine.Post(this, _endpoints[e].IsUp ? SimulationEventCodes.LinkRoom : SimulationEventCodes.LinkDown, e, null);
            }
        }
    }

    /// <summary>Takes the frames whose departure has come out of an endpoint's queue, counting them as transmitted.</summary>
    private void Advance(int e, ref LinkEndpoint endpoint)
    {
        var now = _engine.ElapsedNanoseconds;
        if (endpoint.QueueCount == 0)
        {
            return;
        }

        // All gone (the common case: a link is rarely busy for long): no need to read the queue.
        if (endpoint.TailDepartureNanoseconds <= now)
        {
            endpoint.FramesTransmitted += endpoint.QueueCount;
            endpoint.BytesTransmitted += endpoint.QueuedBytes;
            var head = endpoint.QueueHead + endpoint.QueueCount;
            endpoint.QueueHead = head >= _queueMax ? head - _queueMax : head;
            endpoint.QueueCount = 0;
            endpoint.QueuedBytes = 0;
            return;
        }

        var baseSlot = e * _queueMax;
        while (endpoint.QueueCount > 0)
        {
            var i = baseSlot + endpoint.QueueHead;
            ref readonly var queued = ref _frames[i];
            if (queued.DepartureNanoseconds > now)
            {
                break;
            }

            endpoint.FramesTransmitted++;
            endpoint.BytesTransmitted += queued.Length;
            endpoint.QueuedBytes -= queued.Length;
            endpoint.QueueHead = endpoint.QueueHead + 1 == _queueMax ? 0 : endpoint.QueueHead + 1;
            endpoint.QueueCount--;
        }
    }

    /// <summary>Schedules a room event at the head frame's departure if the node wants one and none is pending. The caller advanced the queue.</summary>
    private void ArmRoom(int e, ref LinkEndpoint endpoint)
    {
        if (endpoint.RoomRequested && !endpoint.RoomEventPending && endpoint.QueueCount > 0)
        {
            endpoint.RoomSlot = _engine.ScheduleAt(_frames[(e * _queueMax) + endpoint.QueueHead].DepartureNanoseconds, this, SimulationEventCodes.RoomDue, e, null);
            endpoint.RoomEventPending = true;
        }
    }

    private void OnRoomDue(int e)
    {
        ref var endpoint = ref _endpoints[e];
        endpoint.RoomEventPending = false;
        var transport = _transports[e / LinksPerServer];
        if (transport is not { IsRunning: true })
        {
            return;
        }

        Advance(e, ref endpoint);
        if (endpoint.RoomOnRequest)
        {
            endpoint.RoomRequested = false;
        }

        transport.Sink!.OnLinkRoom((LinkDirection)(e % LinksPerServer));
        ArmRoom(e, ref _endpoints[e]);
    }

    private void OnArrival(int e, Packet frame)
    {
        var sentAt = _engine.ElapsedNanoseconds - _propagationNanoseconds;
        ref var endpoint = ref _endpoints[e];

        // A sink is there only while the server is alive and its current transport runs.
        ref var receiver = ref _receivers[e / LinksPerServer];
        var sink = receiver.Sink;
        if (endpoint.Cut || endpoint.LastDownNanoseconds > sentAt || sink is null || receiver.AliveSinceNanoseconds > sentAt)
        {
            Drop(frame);
            return;
        }

        endpoint.FramesDelivered++;
        FramesDelivered++;
        BytesDelivered += frame.Length;
        sink.OnFrameReceived((LinkDirection)(e % LinksPerServer), frame);
    }

    private void OnLinkEvent(int code, int e)
    {
        var transport = _transports[e / LinksPerServer];
        if (transport is not { IsRunning: true })
        {
            return;
        }

        var link = (LinkDirection)(e % LinksPerServer);
        var sink = transport.Sink!;
        if (code == SimulationEventCodes.LinkDown)
        {
            sink.OnLinkStatus(link, up: false);
            return;
        }

        if (code == SimulationEventCodes.LinkUp)
        {
            sink.OnLinkStatus(link, up: true);
        }

        if (HasRoom(transport, link))
        {
            ref var endpoint = ref _endpoints[e];
            if (endpoint.RoomOnRequest)
            {
                endpoint.RoomRequested = false;
            }

            sink.OnLinkRoom(link);
        }
    }

    /// <summary>Gets a frame's serialization time: a multiplication when a byte takes a whole number of nanoseconds (1 Gbps: 8), else the options' exact rounding.</summary>
    private long SerializationNanoseconds(int frameBytes) =>
        _nanosecondsPerByte > 0 ? ((long)frameBytes + _frameOverheadBytes) * _nanosecondsPerByte : Options.SerializationNanoseconds(frameBytes);

    private void Drop(Packet frame)
    {
        frame.Release();
        FramesDropped++;
    }

    private int IndexOf(Coordinate coordinate)
    {
        Shape.EnsureContains(coordinate);
        return (int)Shape.IndexOf(coordinate);
    }

    private int EndpointOf(int server, LinkDirection link)
    {
        var e = (server * LinksPerServer) + (int)link;
        if ((uint)link >= LinksPerServer || _peers[e] < 0)
        {
            throw new ArgumentOutOfRangeException(nameof(link), link, $"A server of {Shape} has no {link} link.");
        }

        return e;
    }

    private void WirePeers()
    {
        for (var server = 0; server < ServerCount; server++)
        {
            var self = Shape.CoordinateAt(server);
            for (var d = 0; d < LinksPerServer; d++)
            {
                var link = (LinkDirection)d;
                if (!Shape.HasLink(link))
                {
                    _peers[(server * LinksPerServer) + d] = -1;
                    continue;
                }

                // On an axis of size 2 only the + link exists, and it joins the + links of both ends.
                var arrival = Shape[link.AxisOf()] == 2 ? link : link.Opposite();
                var neighbor = (int)Shape.IndexOf(Shape.Neighbor(self, link));
                _peers[(server * LinksPerServer) + d] = (neighbor * LinksPerServer) + (int)arrival;
            }
        }
    }
}
