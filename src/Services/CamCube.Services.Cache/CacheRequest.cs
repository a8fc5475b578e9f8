namespace CamCube.Services.Cache;

/// <summary>One cache operation handed to <see cref="CacheService.ExecuteAsync"/>. Immutable once handed over.</summary>
public sealed class CacheRequest
{
    /// <summary>Gets the operation.</summary>
    public required CacheOperation Operation { get; init; }

    /// <summary>Gets the key: 1 to 250 bytes, no spaces or control characters (see <see cref="CacheKeys.IsValid"/>).</summary>
    public required byte[] Key { get; init; }

    /// <summary>Gets the value of a store operation (set, add, replace, append, prepend, cas); empty otherwise.</summary>
    public byte[] Value { get; init; } = [];

    /// <summary>Gets the item's 32-bit opaque flags (store operations).</summary>
    public uint Flags { get; init; }

    /// <summary>Gets the expiry relative to now, in seconds: 0 never expires, negative is already expired (store, touch, get-and-touch).</summary>
    public int ExpirationSeconds { get; init; }

    /// <summary>Gets the CAS unique value a <see cref="CacheOperation.Cas"/> compares with.</summary>
    public ulong CasUnique { get; init; }

    /// <summary>Gets the amount of an increment or decrement.</summary>
    public ulong Delta { get; init; }
}
