namespace CamCube.Services.Cache;

/// <summary>
/// What this server's key-value store holds, for the cache beside it (camcubeos 5.2: memId = objId,
/// so a key's cache root is also its store primary). A root that misses reads the source, and does
/// not keep a second copy of a value the source holds (<see cref="CacheService"/>). Called on the
/// node's loop and on front-end threads, under the cache's lock: it must be quick and thread-safe.
/// </summary>
public interface ICacheValueSource
{
    /// <summary>Reads the value this server holds for a key, if it holds a live one.</summary>
    /// <param name="memId">The key's memId (the SHA-1 of its bytes).</param>
    /// <param name="value">The value's bytes.</param>
    /// <param name="flags">The client's flags kept with it.</param>
    /// <param name="version">Its version, served as the cas unique.</param>
    /// <returns>True when this server holds a live value for the key.</returns>
    bool TryRead(Key memId, out ReadOnlyMemory<byte> value, out uint flags, out ulong version);
}
