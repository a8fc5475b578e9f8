using CamCube.Packets;
using CamCube.Services.Cache;

namespace CamCube.Fuzz.Targets;

/// <summary>
/// The cache's messages: each record is the payload of a cache packet (CacheMessage: requests,
/// responses, invalidations, flushes, value fragments) that a node of the cube receives from its
/// neighbour on the control byte's link, in a header made here (to the node itself, as a server or
/// as a key), so the fuzzer spends its time in the cache's parsing, F and handlers.
/// </summary>
public sealed class CacheMessageTarget : IFuzzTarget
{
    /// <summary>Control bit: the packet is addressed to a key coordinate of the node rather than to the node.</summary>
    public const byte ToKey = 8;

    /// <inheritdoc/>
    public string Name => "cache";

    /// <inheritdoc/>
    public string Description => "cache packet payloads into a node's cache service (CacheMessage, F, the root and copy handlers)";

    /// <inheritdoc/>
    public void Run(byte[] input)
    {
        ArgumentNullException.ThrowIfNull(input);
        var cube = new FrameCube();
        foreach (var (control, body) in InputRecords.Split(input))
        {
            // Bits 0-2 the link, bit 3 key or server, bits 4-7 the node.
            var server = FrameCube.Shape.CoordinateAt((control >> 4) % FrameCube.Shape.ServerCount);
            var link = (LinkDirection)((control & 7) % LinkDirections.Count);
            var toKey = (control & ToKey) != 0;
            var payload = body.AsSpan(0, Math.Min(body.Count, cube.PacketCapacityBytes - PacketHeader.SizeBytes)).ToArray();
            var frame = PacketHeaderTarget.Frame(
                CacheService.ServiceId,
                toKey ? DestinationKind.Key : DestinationKind.Server,
                FrameCube.Shape.Neighbor(server, link),
                server,
                payload,
                w: toKey ? (ushort)1 : (ushort)0);
            cube.Deliver(server, link, frame);
        }

        cube.Settle(Name, FrameCube.SettleTime);
    }

    /// <summary>The seeds: each message type as the cache writes it, a value in two fragments, and broken lengths.</summary>
    public static IEnumerable<(string Target, string Name, byte[] Bytes)> Seeds()
    {
        // Node 0 (0,0,0) receives; a request from its +x neighbour (1,0,0).
        var requester = new Coordinate(1, 0, 0);
        var primary = KeyCoordinate.At(new Coordinate(0, 0, 0), 1);
        var key = "k1"u8.ToArray();
        byte[] Message(CacheMessageType type, RouteStage stage, CacheOperation operation, byte[] value, int valueLength = -1, int offset = 0)
        {
            var p = new byte[CacheMessage.FixedBytes + key.Length + value.Length];
            CacheMessage.Write(p, type, stage, 0, 42, requester, primary, (byte)operation, key);
            CacheMessage.SetItem(p, 5, 0, 0);
            CacheMessage.SetValue(p, valueLength < 0 ? value.Length : valueLength, offset);
            value.CopyTo(p, CacheMessage.FixedBytes + key.Length);
            return p;
        }

        var link = (byte)LinkDirection.PlusX;
        yield return ("cache", "set-at-root", InputRecords.Join(((byte)(link | ToKey), Message(CacheMessageType.Request, RouteStage.Primary, CacheOperation.Set, "value"u8.ToArray()))));
        yield return ("cache", "set-then-get", InputRecords.Join(
            ((byte)(link | ToKey), Message(CacheMessageType.Request, RouteStage.Primary, CacheOperation.Set, "value"u8.ToArray())),
            ((byte)(link | ToKey), Message(CacheMessageType.Request, RouteStage.Source, CacheOperation.Get, []))));
        yield return ("cache", "get-at-secondary", InputRecords.Join(((byte)(link | ToKey), Message(CacheMessageType.Request, RouteStage.Secondary, CacheOperation.Get, []))));
        yield return ("cache", "two-fragments", InputRecords.Join(
            ((byte)(link | ToKey), Message(CacheMessageType.Request, RouteStage.Primary, CacheOperation.Set, "abc"u8.ToArray(), valueLength: 6, offset: 0)),
            ((byte)(link | ToKey), Message(CacheMessageType.Request, RouteStage.Primary, CacheOperation.Set, "def"u8.ToArray(), valueLength: 6, offset: 3))));
        yield return ("cache", "response", InputRecords.Join((link, Message(CacheMessageType.Response, RouteStage.Primary, CacheOperation.Get, "value"u8.ToArray()))));
        yield return ("cache", "invalidate", InputRecords.Join((link, Message(CacheMessageType.Invalidate, RouteStage.Primary, CacheOperation.Delete, []))));
        yield return ("cache", "flush-and-ack", InputRecords.Join(
            (link, Message(CacheMessageType.Flush, RouteStage.Primary, 0, [])),
            (link, Message(CacheMessageType.FlushAck, RouteStage.Primary, 0, []))));
        yield return ("cache", "incr", InputRecords.Join(((byte)(link | ToKey), Message(CacheMessageType.Request, RouteStage.Primary, CacheOperation.Increment, []))));
        yield return ("cache", "short", InputRecords.Join(((byte)(link | ToKey), [1, 1, 2])));
    }
}
