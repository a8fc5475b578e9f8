using CamCube.Packets;
using CamCube.Services.Cache;

namespace CamCube.Fuzz.Targets;

/// <summary>
/// The cache's messages: each record is the payload of a cache packet (CacheMessage: requests,
/// responses, invalidations, flushes, value fragments) that a node of the cube receives from its
/// neighbour on the control byte's link, in a header made here (to the node itself, as a server or
/// as a key), so the fuzzer spends its time in the cache's parsing, F and handlers. The kept seeds are
/// made with the cache's own encoder by tests/CamCube.Services.Cache.Tests (CacheFuzzSeeds).
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
}
