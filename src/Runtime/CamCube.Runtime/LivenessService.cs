using System.Buffers.Binary;
using CamCube.Packets;
using CamCube.Services;

namespace CamCube.Runtime;

/// <summary>
/// Neighbour liveness (camcubeos 3.3): a heartbeat on every link each interval; a link that stays
/// silent past the timeout (no heartbeat and no other frame), or that the transport reports down, is down; the first heartbeat
/// after that brings it up. A heartbeat carries the sender's incarnation, so a neighbour that
/// restarted between two heartbeats is seen as down and up again (its link state resynchronises).
/// Silence is counted only while this node was listening: when its own tick comes late (its loop
/// or timer thread was paused by a collection or a starved CPU), the pause is not held against its
/// neighbours, whose heartbeats may be waiting in the loop's queue behind the late tick.
/// </summary>
/// <remarks>Frame payload (wire format v1): the sender's 4-byte incarnation number.</remarks>
internal sealed class LivenessService : IControlService
{
    private readonly Node _node;
    private readonly long[] _lastHeardTimestamp = new long[LinkDirections.Count];
    private readonly uint[] _peerIncarnation = new uint[LinkDirections.Count];
    private readonly bool[] _heard = new bool[LinkDirections.Count];
    private readonly bool[] _transportDown = new bool[LinkDirections.Count];
    private readonly bool[] _heartbeatDue = new bool[LinkDirections.Count];
    private uint _incarnation;
    private ITimer? _timer;
    private long _lastTickTimestamp;

    public LivenessService(Node node) => _node = node;

    public ushort ServiceId => ServiceIds.Liveness;

    public string Name => "liveness";

    public void Start()
    {
        // Random per start (a restart at the same virtual time still differs), and deterministic for a seed.
        _incarnation = (uint)_node.Random.Next() ^ (uint)_node.TimeProvider.GetTimestamp();
        _lastTickTimestamp = _node.TimeProvider.GetTimestamp();
        Tick();
        _timer = _node.TimeProvider.CreateTimer(
            static state => ((Node)state!).Post(Node.WorkCode.HeartbeatTick),
            _node,
            _node.Options.HeartbeatInterval,
            _node.Options.HeartbeatInterval);
    }

    public void Stop()
    {
        _timer?.Dispose();
        _timer = null;
    }

    /// <summary>Checks for silent links and sends a heartbeat on every link.</summary>
    public void Tick()
    {
        var now = _node.TimeProvider.GetTimestamp();

        // How much later than the interval this tick came: time this node spent paused, not listening.
        var pausedTicks = now - _lastTickTimestamp - (long)(_node.Options.HeartbeatInterval.TotalSeconds * _node.TimeProvider.TimestampFrequency);
        _lastTickTimestamp = now;
        for (var d = 0; d < LinkDirections.Count; d++)
        {
            var link = (LinkDirection)d;
            if ((_node.ExistingLinks & (1 << d)) == 0)
            {
                continue;
            }

            if (pausedTicks > 0)
            {
                _lastHeardTimestamp[d] = Math.Min(now, _lastHeardTimestamp[d] + pausedTicks);
            }

            if (_node.IsLinkUp(link) && _node.TimeProvider.GetElapsedTime(_lastHeardTimestamp[d], now) > _node.Options.HeartbeatTimeout)
            {
                _node.SetLinkUp(link, up: false);
            }

            _heartbeatDue[d] = !_transportDown[d];
            _node.UpdateControlPending(d);
        }

        _node.PumpLinks(_node.ExistingLinks);
    }

    /// <summary>
    /// A valid frame came on a link that is up: it shows the neighbour alive and the link working as
    /// well as a heartbeat does. Under load, a heartbeat waits behind data in the sender's queue or
    /// its loop comes late; the link is not taken down while data still arrives. (Only a heartbeat
    /// brings a link up, or tells of a neighbour's restart: it carries the incarnation.)
    /// </summary>
    public void OnFrameHeard(LinkDirection link)
    {
        var d = (int)link;
        if (_heard[d])
        {
            _lastHeardTimestamp[d] = _node.TimeProvider.GetTimestamp();
        }
    }

    public void OnTransportLinkStatus(LinkDirection link, bool up)
    {
        _transportDown[(int)link] = !up;
        if (!up)
        {
            _node.SetLinkUp(link, up: false);
        }
    }

    public bool OnNeighborFrame(Packet packet, LinkDirection link)
    {
        var expected = _node.Shape.Neighbor(_node.Self, link);
        if (packet.Source != expected)
        {
            _node.DropWithLog(packet, DropReason.Malformed, $"heartbeat on {link.ToShortName()} from {packet.Source}, but the neighbour there is {expected} (miswired?)");
            return true;
        }

        if (packet.PayloadLength < 4)
        {
            _node.DropWithLog(packet, DropReason.Malformed, $"heartbeat of {packet.PayloadLength} payload bytes, expected 4");
            return true;
        }

        var d = (int)link;
        var incarnation = BinaryPrimitives.ReadUInt32BigEndian(packet.Payload);
        if (_heard[d] && incarnation != _peerIncarnation[d] && _node.IsLinkUp(link))
        {
            // The neighbour restarted: treat it as a failure and a recovery so its state resynchronises.
            _node.SetLinkUp(link, up: false);
        }

        _peerIncarnation[d] = incarnation;
        _heard[d] = true;
        _lastHeardTimestamp[d] = _node.TimeProvider.GetTimestamp();
        if (!_transportDown[d] && !_node.IsLinkUp(link))
        {
            // Answer at once, so the neighbour brings its end up now, not at its next tick: until
            // both ends are up, a restarted node sees nobody and would take every key as its own.
            _heartbeatDue[d] = true;
            _node.UpdateControlPending(d);
            _node.SetLinkUp(link, up: true);
            _node.Pump(link);
        }

        return false;
    }

    /// <inheritdoc/>
    public bool HasPending(int d) => _heartbeatDue[d];

    public Packet? Poll(LinkDirection link)
    {
        var d = (int)link;
        if (!_heartbeatDue[d])
        {
            return null;
        }

        _heartbeatDue[d] = false;
        _node.UpdateControlPending(d);
        var packet = _node.Pool.Rent();
        packet.WriteHeader(ServiceId, DestinationKind.Neighbor, 1, _node.Self, KeyCoordinate.At(_node.Shape.Neighbor(_node.Self, link), 0));
        BinaryPrimitives.WriteUInt32BigEndian(packet.PayloadArea, _incarnation);
        packet.PayloadLength = 4;
        return packet;
    }

    public void OnRegistered(INodeContext node)
    {
    }

    public void OnDeregistered()
    {
    }

    public bool OnDeliver(Packet packet) => false;

    public ForwardDecision OnForward(Packet packet) => ForwardDecision.Drop;

    public void OnLinkChanged(LinkDirection link, bool up)
    {
    }

    public void OnServerReachabilityChanged(Coordinate server, bool reachable)
    {
    }
}
