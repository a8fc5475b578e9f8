using System.Buffers.Binary;
using CamCube.Packets;
using CamCube.Services;

namespace CamCube.Runtime;

/// <summary>
/// Link-state routing's control service (camcubeos 3.3): every server floods an update with its
/// up links whenever they change; updates travel hop by hop, each node passing on only what is
/// newer than what it knows, and a link that comes up gets the whole database (synchronisation).
/// Updates go before data: this is a control service, polled first.
/// </summary>
/// <remarks>
/// Frame payload (wire format v1): a 2-byte count, then per update 11 bytes: origin x, y, z
/// (2 bytes each), sequence number (4 bytes), up-links mask (1 byte, bit i for direction i).
/// </remarks>
internal sealed class LinkStateService : IControlService
{
    public const int EntrySizeBytes = 11;

    private readonly Node _node;
    private readonly Queue<int>[] _pending = new Queue<int>[LinkDirections.Count];
    private readonly HashSet<int>[] _pendingSet = new HashSet<int>[LinkDirections.Count];
    private readonly int _selfIndex;
    private uint _ownSequence;

    public LinkStateService(Node node)
    {
        _node = node;
        _selfIndex = (int)node.Shape.IndexOf(node.Self);
        for (var d = 0; d < LinkDirections.Count; d++)
        {
            _pending[d] = new Queue<int>();
            _pendingSet[d] = [];
        }
    }

    public ushort ServiceId => ServiceIds.LinkState;

    public string Name => "link-state";

    /// <summary>Gets the updates this node has applied from others (newer than what it knew).</summary>
    public long UpdatesApplied { get; private set; }

    public void OnRegistered(INodeContext node)
    {
    }

    public void OnDeregistered()
    {
    }

    /// <summary>Publishes this node's current up links with a new sequence number.</summary>
    public void Originate()
    {
        _ownSequence++;
        _node.Routes.Database.TryUpdate(_selfIndex, _ownSequence, _node.UpLinks);
        Flood(_selfIndex, except: null);
        _node.ScheduleRecompute();
    }

    public void OnLocalLinkChanged(LinkDirection link, bool up)
    {
        var d = (int)link;
        _pending[d].Clear();
        _pendingSet[d].Clear();
        if (up)
        {
            // Database synchronisation: the new neighbour learns everything this node knows.
            var database = _node.Routes.Database;
            for (var i = 0; i < database.Shape.ServerCount; i++)
            {
                if (database.IsKnown(i) && _pendingSet[d].Add(i))
                {
                    _pending[d].Enqueue(i);
                }
            }
        }

        _node.UpdateControlPending(d);

        Originate();
    }

    public bool OnNeighborFrame(Packet packet, LinkDirection link)
    {
        var payload = packet.Payload;
        if (payload.Length < 2 || payload.Length != 2 + (BinaryPrimitives.ReadUInt16BigEndian(payload) * EntrySizeBytes))
        {
            _node.DropWithLog(packet, DropReason.Malformed, $"link-state frame of {payload.Length} payload bytes does not match its entry count");
            return true;
        }

        var database = _node.Routes.Database;
        var changed = false;
        var count = BinaryPrimitives.ReadUInt16BigEndian(payload);
        for (var i = 0; i < count; i++)
        {
            var entry = payload.Slice(2 + (i * EntrySizeBytes), EntrySizeBytes);
            var origin = new Coordinate(
                BinaryPrimitives.ReadUInt16BigEndian(entry),
                BinaryPrimitives.ReadUInt16BigEndian(entry[2..]),
                BinaryPrimitives.ReadUInt16BigEndian(entry[4..]));
            if (!_node.Shape.Contains(origin))
            {
                _node.DropWithLog(packet, DropReason.Malformed, $"link-state update for {origin}, outside the torus {_node.Shape}");
                return true;
            }

            var sequence = BinaryPrimitives.ReadUInt32BigEndian(entry[6..]);
            var index = (int)_node.Shape.IndexOf(origin);
            if (index == _selfIndex)
            {
                // An update about this node from an earlier life: jump past it. An echo of the
                // current update (same sequence, same links) is old news, or updates would flood forever.
                if (sequence > _ownSequence || (sequence == _ownSequence && entry[10] != database.UpLinksOf(_selfIndex)))
                {
                    _ownSequence = sequence;
                    Originate();
                }

                continue;
            }

            if (database.TryUpdate(index, sequence, entry[10]))
            {
                UpdatesApplied++;
                changed = true;
                Flood(index, except: link);
            }
        }

        if (changed)
        {
            _node.ScheduleRecompute();
        }

        return false;
    }

    /// <inheritdoc/>
    public bool HasPending(int d) => _pending[d].Count > 0;

    public Packet? Poll(LinkDirection link)
    {
        var d = (int)link;
        if (_pending[d].Count == 0 || !_node.IsLinkUp(link))
        {
            return null;
        }

        var packet = _node.Pool.Rent();
        packet.WriteHeader(ServiceId, DestinationKind.Neighbor, 1, _node.Self, KeyCoordinate.At(_node.Shape.Neighbor(_node.Self, link), 0));
        var area = packet.PayloadArea;
        var capacity = Math.Min(ushort.MaxValue, (area.Length - 2) / EntrySizeBytes);
        var database = _node.Routes.Database;
        var count = 0;
        while (count < capacity && _pending[d].TryDequeue(out var index))
        {
            _pendingSet[d].Remove(index);
            var origin = _node.Shape.CoordinateAt(index);
            var entry = area.Slice(2 + (count * EntrySizeBytes), EntrySizeBytes);
            BinaryPrimitives.WriteUInt16BigEndian(entry, (ushort)origin.X);
            BinaryPrimitives.WriteUInt16BigEndian(entry[2..], (ushort)origin.Y);
            BinaryPrimitives.WriteUInt16BigEndian(entry[4..], (ushort)origin.Z);
            BinaryPrimitives.WriteUInt32BigEndian(entry[6..], database.SequenceOf(index));
            entry[10] = database.UpLinksOf(index);
            count++;
        }

        _node.UpdateControlPending(d);
        BinaryPrimitives.WriteUInt16BigEndian(area, (ushort)count);
        packet.PayloadLength = 2 + (count * EntrySizeBytes);
        return packet;
    }

    public bool OnDeliver(Packet packet) => false;

    public ForwardDecision OnForward(Packet packet) => ForwardDecision.Drop;

    public void OnLinkChanged(LinkDirection link, bool up)
    {
    }

    public void OnServerReachabilityChanged(Coordinate server, bool reachable)
    {
    }

    private void Flood(int index, LinkDirection? except)
    {
        for (var d = 0; d < LinkDirections.Count; d++)
        {
            var link = (LinkDirection)d;
            if (link != except && _node.IsLinkUp(link) && _pendingSet[d].Add(index))
            {
                _pending[d].Enqueue(index);
                _node.UpdateControlPending(d);
            }
        }

        _node.PumpLinks(_node.UpLinks);
    }
}
