namespace CamCube.Memcached;

/// <summary>A storage command's arguments, checked and parsed.</summary>
/// <param name="Operation">The command.</param>
/// <param name="Flags">The client's opaque 32-bit flags, kept with the item.</param>
/// <param name="ExpirationSeconds">The expiry in seconds from now: 0 never, -1 already expired (memcached's absolute times are converted).</param>
/// <param name="Cas">For <see cref="MemcachedStorageOperation.Cas"/>, the cas unique the item must hold; otherwise 0.</param>
public readonly record struct MemcachedStorageCommand(MemcachedStorageOperation Operation, uint Flags, int ExpirationSeconds, ulong Cas);
