namespace CamCube.Memcached;

/// <summary>The memcached key rules.</summary>
public static class MemcachedKeys
{
    /// <summary>The longest key, in bytes (memcached's limit).</summary>
    public const int LengthMax = 250;

    /// <summary>Gets whether <paramref name="key"/> is a valid memcached key: 1 to 250 bytes, none of them a space or a control character.</summary>
    /// <param name="key">The key's bytes.</param>
    /// <returns>True when valid.</returns>
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
}
