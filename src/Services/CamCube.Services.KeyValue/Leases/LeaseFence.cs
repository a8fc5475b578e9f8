namespace CamCube.Services.KeyValue.Leases;

/// <summary>A write of a key began at its primary: until <see cref="Until"/> (this server's clock) no front-end lease on <see cref="Version"/> or an older one is taken, even from a reply still on its way.</summary>
/// <param name="Version">The version the write replaces.</param>
/// <param name="Until">When any lease granted before the write has run out.</param>
internal readonly record struct LeaseFence(long Version, long Until);
