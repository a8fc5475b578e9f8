using CamCube.Testing;

namespace CamCube.Services.Cache.Tests;

/// <summary>
/// The cache fuzz target's generated seeds (tests/CamCube.Fuzz/corpus/cache): each message type as
/// the cache writes it, a value in two fragments, and broken lengths, made with the cache's own
/// encoder. They live here, beside the cache's internals, so the fuzz driver needs no access to them.
/// Each input is a series of records: a control byte (bits 0-2 the link, bit 3 to a key coordinate),
/// a 2-byte big-endian length and the body (<see cref="KeptFuzzSeeds.Join"/>).
/// </summary>
internal static class CacheFuzzSeeds
{
    /// <summary>Control bit: the packet is addressed to a key coordinate of the node rather than to the node.</summary>
    public const byte ToKey = 8;

    /// <summary>The seeds by file name.</summary>
    public static IEnumerable<(string Name, byte[] Bytes)> All()
    {
        // Node 0 (0,0,0) receives; a request from its +x neighbour (1,0,0).
        var link = (byte)LinkDirection.PlusX;
        var toKey = (byte)(link | ToKey);
        yield return ("set-at-root", KeptFuzzSeeds.Join((toKey, Message(CacheMessageType.Request, RouteStage.Primary, CacheOperation.Set, "value"u8.ToArray()))));
        yield return ("set-then-get", KeptFuzzSeeds.Join(
            (toKey, Message(CacheMessageType.Request, RouteStage.Primary, CacheOperation.Set, "value"u8.ToArray())),
            (toKey, Message(CacheMessageType.Request, RouteStage.Source, CacheOperation.Get, []))));
        yield return ("get-at-secondary", KeptFuzzSeeds.Join((toKey, Message(CacheMessageType.Request, RouteStage.Secondary, CacheOperation.Get, []))));
        yield return ("two-fragments", KeptFuzzSeeds.Join(
            (toKey, Message(CacheMessageType.Request, RouteStage.Primary, CacheOperation.Set, "abc"u8.ToArray(), valueLength: 6, offset: 0)),
            (toKey, Message(CacheMessageType.Request, RouteStage.Primary, CacheOperation.Set, "def"u8.ToArray(), valueLength: 6, offset: 3))));
        yield return ("response", KeptFuzzSeeds.Join((link, Message(CacheMessageType.Response, RouteStage.Primary, CacheOperation.Get, "value"u8.ToArray()))));
        yield return ("invalidate", KeptFuzzSeeds.Join((link, Message(CacheMessageType.Invalidate, RouteStage.Primary, CacheOperation.Delete, []))));
        yield return ("flush-and-ack", KeptFuzzSeeds.Join(
            (link, Message(CacheMessageType.Flush, RouteStage.Primary, 0, [])),
            (link, Message(CacheMessageType.FlushAck, RouteStage.Primary, 0, []))));
        yield return ("incr", KeptFuzzSeeds.Join((toKey, Message(CacheMessageType.Request, RouteStage.Primary, CacheOperation.Increment, []))));
        yield return ("short", KeptFuzzSeeds.Join((toKey, [1, 1, 2])));
    }

    private static byte[] Message(CacheMessageType type, RouteStage stage, CacheOperation operation, byte[] value, int valueLength = -1, int offset = 0)
    {
        var requester = new Coordinate(1, 0, 0);
        var primary = KeyCoordinate.At(new Coordinate(0, 0, 0), 1);
        var key = "k1"u8.ToArray();
        var p = new byte[CacheMessage.FixedBytes + key.Length + value.Length];
        CacheMessage.Write(p, type, stage, 0, 42, requester, primary, (byte)operation, key);
        CacheMessage.SetItem(p, 5, 0, 0);
        CacheMessage.SetValue(p, valueLength < 0 ? value.Length : valueLength, offset);
        value.CopyTo(p, CacheMessage.FixedBytes + key.Length);
        return p;
    }
}
