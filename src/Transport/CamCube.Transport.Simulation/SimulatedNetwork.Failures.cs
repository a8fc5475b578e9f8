namespace CamCube.Transport.Simulation;

/// <summary>Server and link failures of the simulated network.</summary>
public sealed partial class SimulatedNetwork
{
    /// <summary>Gets whether the server at <paramref name="coordinate"/> is alive (not killed).</summary>
    /// <exception cref="ArgumentOutOfRangeException">The coordinate is outside the torus.</exception>
    public bool IsAlive(Coordinate coordinate) => _alive[IndexOf(coordinate)];

    /// <summary>Gets whether the cable of the link in <paramref name="link"/> at <paramref name="coordinate"/> is cut.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The coordinate is outside the torus or the shape has no such link.</exception>
    public bool IsLinkCut(Coordinate coordinate, LinkDirection link) => _endpoints[EndpointOf(IndexOf(coordinate), link)].Cut;

    /// <summary>
    /// Fails the server at <paramref name="coordinate"/> now: its transport stops delivering events
    /// and refuses to send, every frame queued on its links is dropped, and frames in flight to it
    /// are lost. If <see cref="SimulatedNetworkOptions.SignalServerFailureToNeighbors"/> is set,
    /// its neighbours see the links to it go down (and drop what they had queued for it);
    /// otherwise they keep sending into the void. The node's runtime is the caller's to stop: its
    /// timers still run on the engine. Returns false if the server was already down.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The coordinate is outside the torus.</exception>
    public bool KillServer(Coordinate coordinate) => Kill(IndexOf(coordinate));

    /// <summary>
    /// Brings a failed server back with a fresh transport, returned (and from now on returned by
    /// <see cref="GetTransport(Coordinate)"/>), for a fresh node to start. Frames still in flight
    /// from before the restart are lost. Neighbours see their links to it come up (with room).
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The coordinate is outside the torus.</exception>
    /// <exception cref="InvalidOperationException">The server is alive.</exception>
    public SimulatedLinkTransport RestartServer(Coordinate coordinate)
    {
        var server = IndexOf(coordinate);
        if (_alive[server])
        {
            throw new InvalidOperationException($"Server {coordinate} is alive; only a failed server restarts.");
        }

        _alive[server] = true;
        AliveServerCount++;
        _receivers[server] = new ServerReceiver { AliveSinceNanoseconds = _engine.ElapsedNanoseconds };
        var transport = new SimulatedLinkTransport(this, server, coordinate);
        _transports[server] = transport;
        var signal = Options.SignalServerFailureToNeighbors;
        var first = server * LinksPerServer;
        for (var e = first; e < first + LinksPerServer; e++)
        {
            var peer = _peers[e];
            if (peer < 0)
            {
                continue;
            }

            _endpoints[e].PeerDown = signal && !_alive[peer / LinksPerServer];
            if (signal)
            {
                SetEndpointState(peer, _endpoints[peer].Cut, peerDown: false);
            }
        }

        return transport;
    }

    /// <summary>
    /// Cuts the cable of the link in <paramref name="link"/> at <paramref name="coordinate"/>:
    /// both ends see it go down, lose what they had queued on it and what was in flight. Returns
    /// false if it was already cut.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The coordinate is outside the torus or the shape has no such link.</exception>
    public bool CutLink(Coordinate coordinate, LinkDirection link) => SetCut(EndpointOf(IndexOf(coordinate), link), cut: true);

    /// <summary>Restores a cut cable: both ends whose servers are alive see it come up, with room. Returns false if it was not cut.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The coordinate is outside the torus or the shape has no such link.</exception>
    public bool RestoreLink(Coordinate coordinate, LinkDirection link) => SetCut(EndpointOf(IndexOf(coordinate), link), cut: false);

    internal void OnStopped(SimulatedLinkTransport transport)
    {
        if (ReferenceEquals(_transports[transport.ServerIndex], transport) && _alive[transport.ServerIndex])
        {
            Kill(transport.ServerIndex);
        }
        else
        {
            transport.MarkFailed();
        }
    }

    private bool Kill(int server)
    {
        if (!_alive[server])
        {
            return false;
        }

        _alive[server] = false;
        AliveServerCount--;
        _transports[server]?.MarkFailed();
        _receivers[server].Sink = null;
        var signal = Options.SignalServerFailureToNeighbors;
        var first = server * LinksPerServer;
        for (var e = first; e < first + LinksPerServer; e++)
        {
            var peer = _peers[e];
            if (peer < 0)
            {
                continue;
            }

            Flush(e);
            if (signal)
            {
                SetEndpointState(peer, _endpoints[peer].Cut, peerDown: true);
            }
        }

        return true;
    }

    private bool SetCut(int e, bool cut)
    {
        if (_endpoints[e].Cut == cut)
        {
            return false;
        }

        var peer = _peers[e];
        SetEndpointState(e, cut, _endpoints[e].PeerDown);
        SetEndpointState(peer, cut, _endpoints[peer].PeerDown);
        return true;
    }

    /// <summary>Sets an endpoint's state; if it goes down or up, flushes it or tells its node.</summary>
    private void SetEndpointState(int e, bool cut, bool peerDown)
    {
        ref var endpoint = ref _endpoints[e];
        var wasUp = endpoint.IsUp;
        endpoint.Cut = cut;
        endpoint.PeerDown = peerDown;
        var isUp = endpoint.IsUp;
        if (wasUp == isUp)
        {
            return;
        }

        if (!isUp)
        {
            endpoint.LastDownNanoseconds = _engine.ElapsedNanoseconds;
            Flush(e);
        }

        if (_alive[e / LinksPerServer])
        {
            _engine.Post(this, isUp ? SimulationEventCodes.LinkUp : SimulationEventCodes.LinkDown, e, null);
        }
    }

    /// <summary>Drops every frame queued on an endpoint, the one being serialized included (their arrivals are cancelled), and its pending room event.</summary>
    private void Flush(int e)
    {
        ref var endpoint = ref _endpoints[e];
        Advance(e, ref endpoint);
        var baseSlot = e * _queueMax;
        for (var i = 0; i < endpoint.QueueCount; i++)
        {
            var slot = endpoint.QueueHead + i;
            Drop(_engine.Cancel(_frames[baseSlot + (slot >= _queueMax ? slot - _queueMax : slot)].ArrivalSlot)!);
        }

        endpoint.QueueHead = 0;
        endpoint.QueueCount = 0;
        endpoint.QueuedBytes = 0;
        if (endpoint.RoomEventPending)
        {
            _engine.Cancel(endpoint.RoomSlot);
            endpoint.RoomEventPending = false;
        }
    }
}
