using CamCube.Packets;
using CamCube.Services;

namespace CamCube.Runtime.Tests.Shared;

/// <summary>
/// A test service for the runtime API a service writer uses from other threads and on the loop,
/// run unchanged on the in-memory, simulated and UDP transports (this file is linked into their
/// test projects). An echo: a request routed to a key is answered by its root, to the source.
/// </summary>
internal sealed class ApiProbeService() : ServiceBase(Id, "api-probe"), IOwnershipObserver, IDropObserver
{
    public const ushort Id = 0x0700;

    private const byte Request = 1;
    private const byte Reply = 2;
    private const byte Datagram = 3;

    private readonly Queue<TaskCompletionSource<int>> _waiting = new();

    /// <summary>Gets the synchronization context the last echo resumed on after its await (its type's name), or null.</summary>
    public string? ResumedOn { get; private set; }

    /// <summary>Gets how many posted actions have run here (read it on the loop).</summary>
    public int PostedRuns { get; set; }

    /// <summary>Gets each ownership change heard: the watch's r and the key coordinates named, in order.</summary>
    public List<(int ReplicaCount, KeyCoordinate[] Changed)> OwnershipChanges { get; } = [];

    /// <summary>On the loop: watches <paramref name="keys"/> with replica sets of <paramref name="replicaCount"/> servers.</summary>
    public IKeyWatch Watch(int replicaCount, params Key[] keys)
    {
        var watch = Node.CreateKeyWatch(replicaCount);
        foreach (var key in keys)
        {
            watch.Add(Node.KeySpace.KeyCoordinateOf(key));
        }

        return watch;
    }

    /// <inheritdoc/>
    public void OnOwnershipChanged(IKeyWatch watch, ReadOnlySpan<KeyCoordinate> changed) => OwnershipChanges.Add((watch.ReplicaCount, changed.ToArray()));

    /// <summary>Gets each drop heard of: reason, where, destination, hops, payload length and payload prefix.</summary>
    public List<(DropReason Reason, Coordinate At, KeyCoordinate Destination, byte Hops, int PayloadLength, byte[] Prefix)> Drops { get; } = [];

    /// <summary>On the loop: sends a datagram tagged <paramref name="tag"/> to <paramref name="server"/>, nobody answers it.</summary>
    public RouteStatus SendDatagram(Coordinate server, byte tag)
    {
        var packet = Node.CreatePacket();
        packet.PayloadArea[0] = Datagram;
        packet.PayloadArea[1] = tag;
        packet.PayloadLength = 2;
        return Node.RouteToServer(packet, server);
    }

    /// <summary>
    /// On the loop: sends <paramref name="count"/> datagrams to <paramref name="server"/> in one turn and
    /// returns how many were queued and how many found the queue full, then the queue's depth and
    /// whether <paramref name="link"/> has room, read at once.
    /// </summary>
    public (int Queued, int Full, int Depth, bool Room) Burst(Coordinate server, LinkDirection link, int count)
    {
        var (queued, full) = (0, 0);
        for (var i = 0; i < count; i++)
        {
            var status = SendDatagram(server, (byte)i);
            queued += status == RouteStatus.Queued ? 1 : 0;
            full += status == RouteStatus.DroppedQueueFull ? 1 : 0;
        }

        return (queued, full, Node.QueuedPacketCount, Node.HasLinkRoom(link));
    }

    /// <inheritdoc/>
    public void OnDropped(in DroppedPacket drop) =>
        Drops.Add((drop.Reason, drop.DroppedAt, drop.Destination, drop.HopCount, drop.PayloadLength, drop.PayloadPrefix.ToArray()));

    /// <summary>Any thread: the node's coordinate, read on the loop.</summary>
    public Task<Coordinate> WhereAsync() => InvokeAsync(() => Node.Self);

    /// <summary>
    /// Any thread: sends a request to <paramref name="key"/>'s root and completes with the hops its
    /// reply took back, awaiting the reply on the loop (one task, not a task of a task).
    /// </summary>
    public Task<int> EchoAsync(Key key) => InvokeAsync(async () =>
    {
        var reply = new TaskCompletionSource<int>(TaskCreationOptions.RunContinuationsAsynchronously);
        _waiting.Enqueue(reply);
        var packet = Node.CreatePacket();
        packet.PayloadArea[0] = Request;
        packet.PayloadLength = 1;
        Node.RouteToKey(packet, key);
        var hops = await reply.Task;
        ResumedOn = SynchronizationContext.Current?.GetType().Name;
        return hops;
    });

    /// <summary>The context the service runs with, for the test to call the API directly.</summary>
    public INodeContext Context => Node;

    /// <inheritdoc/>
    public override bool OnDeliver(Packet packet)
    {
        if (packet.Payload[0] == Datagram)
        {
            return false;
        }

        if (packet.Payload[0] == Request && packet.Source != Node.Self)
        {
            var answer = Node.CreatePacket();
            answer.PayloadArea[0] = Reply;
            answer.PayloadLength = 1;
            Node.RouteToServer(answer, packet.Source);
        }
        else if (_waiting.TryDequeue(out var waiter))
        {
            waiter.SetResult(packet.Payload[0] == Request ? 0 : packet.HopCount);
        }

        return false;
    }
}
