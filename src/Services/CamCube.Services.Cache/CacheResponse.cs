namespace CamCube.Services.Cache;

/// <summary>The answer to a <see cref="CacheRequest"/>. Responses without a value are shared, immutable instances.</summary>
public sealed class CacheResponse
{
    private static readonly CacheResponse[] s_plain = CreatePlain();

    /// <summary>Creates a response.</summary>
    /// <param name="status">The outcome.</param>
    /// <param name="value">The item's value (a hit), or the new decimal value (increment, decrement); empty otherwise.</param>
    /// <param name="flags">The item's flags (a hit).</param>
    /// <param name="cas">The item's CAS unique value (a hit).</param>
    public CacheResponse(CacheStatus status, byte[]? value = null, uint flags = 0, ulong cas = 0)
    {
        Status = status;
        Value = value ?? [];
        Flags = flags;
        Cas = cas;
    }

    /// <summary>Gets the outcome.</summary>
    public CacheStatus Status { get; }

    /// <summary>Gets the value of a hit, or the new value of an increment or decrement as decimal ASCII.</summary>
    public byte[] Value { get; }

    /// <summary>Gets the item's flags.</summary>
    public uint Flags { get; }

    /// <summary>Gets the item's CAS unique value, kept by the root.</summary>
    public ulong Cas { get; }

    /// <summary>Gets the hops the request took to the server that answered it (a hit), from the packet header.</summary>
    public int Hops { get; init; }

    /// <summary>Gets the shared response with <paramref name="status"/> and nothing else.</summary>
    public static CacheResponse Of(CacheStatus status) => s_plain[(int)status];

    private static CacheResponse[] CreatePlain()
    {
        var all = new CacheResponse[(int)CacheStatus.InvalidKey + 1];
        for (var i = 0; i < all.Length; i++)
        {
            all[i] = new CacheResponse((CacheStatus)i);
        }

        return all;
    }
}
