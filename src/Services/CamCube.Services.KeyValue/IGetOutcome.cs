namespace CamCube.Services.KeyValue;

/// <summary>What waits for a <see cref="StoreGet"/>: told exactly once per get, how it ended.</summary>
internal interface IGetOutcome
{
    /// <summary>The key holds <paramref name="value"/> (valid only during the call) at <paramref name="version"/>.</summary>
    void Found(long version, ReadOnlySpan<byte> value);

    /// <summary>The key holds no value (never written, or deleted).</summary>
    void Missing();

    /// <summary>The get failed: a <see cref="KeyValueStoreException"/> says why (anything else: the node stopped under it).</summary>
    void Failed(Exception error);
}
