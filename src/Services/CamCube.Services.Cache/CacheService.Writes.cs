using CamCube.Packets;

namespace CamCube.Services.Cache;

/// <summary>
/// Writes pinned to one root. A read may be answered by any server on its way (copies, the root),
/// but a write must run at one root only: were its copies routed to the key afresh, a copy sent
/// again after the key's root changed would run at the new root too, after the first root's answer
/// had told the client it was done, and overwrite what others wrote since. So every copy of a write
/// goes to the server that was the key's root when the write left; that server runs it while it is
/// the root, and otherwise refuses it for good (<see cref="CacheStatus.Moved"/>), whereupon the
/// requester sends it to the root under a new id. A write whose server becomes unreachable before
/// it answers moves too: that server's items are lost with it (camcubeos 5.1), and the requester has
/// not answered its client yet.
/// </summary>
public sealed partial class CacheService
{
    /// <summary>Gets the root of a request's key in this node's view.</summary>
    private Coordinate RootOf(PendingRequest request) =>
        Node.GetRoot(Node.KeySpace.KeyCoordinateOf(CacheKeys.MemId(request.Call.Key.Span)));

    /// <summary>A write reached the server it was sent to: run it if this server is its key's root, else refuse it for good.</summary>
    private void OnWriteAtServer(Packet packet)
    {
        var p = packet.Payload;
        if (!Node.Shape.Contains(CacheMessage.PrimaryOf(p).Home))
        {
            // Routed to a server, a request's key coordinate is checked by no router on the way.
            Node.Drop(packet, DropReason.Malformed);
            return;
        }

        if (RefusedWithoutMajority(packet))
        {
            return;
        }

        lock (Store.Gate)
        {
            if (TryAnswerRepeatedWrite(packet))
            {
                return;
            }

            if (Node.GetRoot(CacheMessage.PrimaryOf(p)) != Node.Self)
            {
                // Every later copy is refused too (remembered as answered), even once this server is the root again.
                var requester = CacheMessage.RequesterOf(p);
                _recentWrites!.Add(requester, CacheMessage.RequestIdOf(p), CacheStatus.Moved, answered: true, Node.TimeProvider.GetTimestamp());
                SendResponseLocked(p, CacheStatus.Moved, null, requester, fill: false);
                packet.Release();
                return;
            }

            ExecuteAtRoot(packet);
        }
    }

    /// <summary>The server a write went to refused it: it goes to the root under a new id (once the view names another root).</summary>
    private void OnMoved(uint requestId)
    {
        if (_pending.TryGetValue(requestId, out var pending))
        {
            Move(pending, pending.Destination);
        }
    }

    /// <summary><paramref name="server"/> became unreachable: the writes sent to it and not answered go to their key's root now.</summary>
    private void MoveWritesSentTo(Coordinate server)
    {
        foreach (var pending in _pending.Values)
        {
            if (pending.Destination == server)
            {
                _moving.Add(pending);
            }
        }

        foreach (var pending in _moving)
        {
            Move(pending, server);
        }

        _moving.Clear();
    }

    /// <summary>
    /// Gives a write a new id (its earlier copies are answered to an id no longer waited for) and
    /// sends it to its key's root; while the view still names <paramref name="left"/>, the server it
    /// leaves, it waits for the sweep to look again.
    /// </summary>
    private void Move(PendingRequest pending, Coordinate? left)
    {
        _pending.Remove(pending.RequestId);
        pending.RequestId = ++_nextRequestId;
        pending.ForgetPartialResponse();
        pending.RetransmitAt = Node.TimeProvider.GetTimestamp() + RetransmitTicks(0);
        _pending.Add(pending.RequestId, pending);
        Statistics.CountMovedWrite();
        var root = RootOf(pending);
        pending.Destination = root == left ? null : root;
        if (pending.Destination is not null)
        {
            SendRequest(pending);
        }
    }
}
