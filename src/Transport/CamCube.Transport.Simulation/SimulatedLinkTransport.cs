using CamCube.Packets;

namespace CamCube.Transport.Simulation;

/// <summary>
/// One server's shim onto a <see cref="SimulatedNetwork"/>: the same <see cref="ILinkTransport"/>
/// the node runtime uses on every transport. Get it with <see cref="SimulatedNetwork.GetTransport(Coordinate)"/>.
/// </summary>
/// <remarks>
/// A link has room while its transmit queue holds fewer than
/// <see cref="SimulatedNetworkOptions.FramesQueuedMax"/> frames and it is up. A frame longer than
/// the MTU is a programming error and throws. Once failed (<see cref="SimulatedNetwork.KillServer"/>
/// or <see cref="Stop"/>), a transport stays failed; a restarted server gets a new one.
/// </remarks>
public sealed class SimulatedLinkTransport : ILinkTransport, ILinkRoomRequests
{
    private readonly SimulatedNetwork _network;
    private bool _started;
    private bool _failed;

    internal SimulatedLinkTransport(SimulatedNetwork network, int serverIndex, Coordinate self)
    {
        _network = network;
        ServerIndex = serverIndex;
        Self = self;
    }

    /// <inheritdoc/>
    public TorusShape Shape => _network.Shape;

    /// <inheritdoc/>
    public Coordinate Self { get; }

    /// <summary>Gets the server's dense index in the torus (see <see cref="TorusShape.IndexOf"/>).</summary>
    public int ServerIndex { get; }

    /// <summary>Gets the network this transport belongs to.</summary>
    public SimulatedNetwork Network => _network;

    /// <summary>Gets the largest frame this transport sends, in bytes.</summary>
    public int MtuBytes => _network.Options.MtuBytes;

    /// <summary>Gets whether the server failed or the transport was stopped.</summary>
    public bool IsFailed => _failed;

    internal bool IsRunning => _started && !_failed;

    internal ITransportSink? Sink { get; private set; }

    /// <summary>Gets whether the node enabled room on request.</summary>
    internal bool RoomOnRequest { get; private set; }

    /// <inheritdoc/>
    /// <remarks>The node then hears, at the current virtual time, of room on each up link and of each down link.</remarks>
    /// <exception cref="InvalidOperationException">The transport was started before or has failed.</exception>
    public void Start(ITransportSink sink)
    {
        ArgumentNullException.ThrowIfNull(sink);
        if (_started)
        {
            throw new InvalidOperationException("A transport starts once.");
        }

        if (_failed)
        {
            throw new InvalidOperationException($"Server {Self} failed; restart it with SimulatedNetwork.RestartServer, which gives a new transport.");
        }

        Sink = sink;
        _started = true;
        _network.OnStarted(this);
    }

    /// <inheritdoc/>
    /// <remarks>The server leaves the network exactly as if it had failed (see <see cref="SimulatedNetwork.KillServer"/>).</remarks>
    public void Stop()
    {
        if (!_failed)
        {
            _network.OnStopped(this);
        }
    }

    /// <inheritdoc/>
    public bool HasRoom(LinkDirection link) => _network.HasRoom(this, link);

    /// <inheritdoc/>
    /// <exception cref="ArgumentException">The frame is longer than <see cref="MtuBytes"/>.</exception>
    public bool TrySend(LinkDirection link, Packet frame) => _network.TrySend(this, link, frame);

    /// <inheritdoc/>
    /// <exception cref="InvalidOperationException">The transport has started.</exception>
    public void EnableRoomOnRequest()
    {
        if (_started)
        {
            throw new InvalidOperationException("Room on request is enabled before the transport starts.");
        }

        RoomOnRequest = true;
    }

    /// <inheritdoc/>
    public void RequestRoom(LinkDirection link) => _network.RequestRoom(this, link);

    internal void MarkFailed()
    {
        _failed = true;
        Sink = null;
    }
}
