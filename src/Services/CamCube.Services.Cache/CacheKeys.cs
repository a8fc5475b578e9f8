namespace CamCube.Services.Cache;

/// <summary>The memcached key rules and the key's memId (camcubeos 5.1: a string key hashes to a memId).</summary>
public static class CacheKeys
{
    /// <summary>The longest key, in bytes (memcached's limit).</summary>
    public const int LengthMax = 250;

    /// <summary>Gets whether <paramref name="key"/> is a valid memcached key: 1 to 250 bytes, none of them a space or a control character.</summary>
    public static bool IsValid(ReadOnlySpan<byte> key)
    {
        if (key.IsEmpty || key.Length > LengthMax)
        {
            return false;
        }

        foreach (var b in key)
        {
            if (b <= 0x20 || b == 0x7F)
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>Gets the memId of a key: the SHA-1 of its bytes, as every node computes it.</summary>
    public static Key MemId(ReadOnlySpan<byte> key) => Key.Hash(key);
}
