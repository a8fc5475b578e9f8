namespace CamCube.Services.KeyValue.Leases;

/// <summary>A key's value as its primary answered it to this server, which may answer gets of the key with it until <see cref="Until"/> (a timestamp of this server's clock).</summary>
/// <param name="Version">The version read.</param>
/// <param name="Value">The value read; null when the key held none.</param>
/// <param name="Until">When the lease ends.</param>
internal sealed record FrontEndLease(long Version, byte[]? Value, long Until);
