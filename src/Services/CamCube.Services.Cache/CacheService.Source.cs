using CamCube.Packets;

namespace CamCube.Services.Cache;

/// <summary>
/// The cache beside the key-value store (camcubeos 5.2: memId = objId, so a key's cache root is
/// also its store primary): a root that misses answers from the store's value here (<see cref="ICacheValueSource"/>)
/// without caching it, and a set of exactly what the store holds here (same bytes and flags, no
/// expiry) keeps no second copy: the cache's item goes, and gets are answered from the store.
/// </summary>
public sealed partial class CacheService
{
    /// <summary>Reads the store's value for a key at this root, when there is a source and it holds one.</summary>
    private bool TryReadSource(ReadOnlySpan<byte> key, out ReadOnlyMemory<byte> value, out uint flags, out ulong version)
    {
        if (ValueSource is { } source)
        {
            return source.TryRead(CacheKeys.MemId(key), out value, out flags, out version);
        }

        (value, flags, version) = (default, 0, 0);
        return false;
    }

    /// <summary>Whether a set (in one packet, without expiry) stores exactly what the store holds for its key here.</summary>
    private bool SourceHoldsTheSame(Packet packet)
    {
        var p = packet.Payload;
        var chunk = CacheMessage.ChunkOf(p);
        return ValueSource is not null
            && CacheMessage.ChunkOffsetOf(p) == 0 && chunk.Length == CacheMessage.ValueLengthOf(p) && CacheMessage.ExpirationOf(p) == 0
            && TryReadSource(CacheMessage.KeyOf(p), out var value, out var flags, out _)
            && flags == CacheMessage.FlagsOf(p) && value.Span.SequenceEqual(chunk);
    }
}
