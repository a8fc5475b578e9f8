namespace CamCube.Services.KeyValue;

/// <summary>What waits for a <see cref="StoreSet"/>: told exactly once per set, how it ended.</summary>
internal interface ISetOutcome
{
    /// <summary>The primary answered the put with <paramref name="outcome"/>.</summary>
    void Written(WriteOutcome outcome);

    /// <summary>The put failed: a <see cref="KeyValueStoreException"/> says why (anything else: the node stopped under it).</summary>
    void Failed(Exception error);
}
