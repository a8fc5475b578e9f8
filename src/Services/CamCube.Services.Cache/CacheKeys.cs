using CamCube.Memcached;

namespace CamCube.Services.Cache;

/// <summary>The memcached key rules and the key's memId (camcubeos 5.1: a string key hashes to a memId).</summary>
public static class CacheKeys
{
    /// <summary>The longest key, in bytes (memcached's limit).</summary>
    public const int LengthMax = MemcachedKeys.LengthMax;

    /// <summary>Gets whether <paramref name="key"/> is a valid memcached key: 1 to 250 bytes, none of them a space or a control character.</summary>
    public static bool IsValid(ReadOnlySpan<byte> key) => MemcachedKeys.IsValid(key);

    /// <summary>Gets the memId of a key: the SHA-1 of its bytes, as every node computes it.</summary>
    public static Key MemId(ReadOnlySpan<byte> key) => Key.Hash(key);
}
