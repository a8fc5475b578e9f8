namespace CamCube.Services.KeyValue.Leases;

/// <summary>A read lease a replica granted a key's primary: until <see cref="Until"/> (a timestamp of the replica's own clock) it promises no other server a higher ballot.</summary>
/// <param name="Holder">The primary the lease was granted to, or null when not known.</param>
/// <param name="Until">When the lease ends, in <see cref="TimeProvider.GetTimestamp"/> ticks of the granting server.</param>
/// <param name="Renewable">Whether the holder's renewals in bulk (<see cref="GrantedRenewal"/>) keep it in force past <paramref name="Until"/>; false once the holder gave the key up.</param>
internal readonly record struct GrantedLease(Coordinate? Holder, long Until, bool Renewable = true);
