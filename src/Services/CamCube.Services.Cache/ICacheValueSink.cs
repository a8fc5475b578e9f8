namespace CamCube.Services.Cache;

/// <summary>Receives an item's value from the local path while the store's lock is held (<see cref="CacheService.TryGetLocally"/>).</summary>
internal interface ICacheValueSink
{
    /// <summary>Takes a hit: copy what is needed from <paramref name="value"/>, which is only valid during the call.</summary>
    void OnValue(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value, uint flags, ulong cas);
}
