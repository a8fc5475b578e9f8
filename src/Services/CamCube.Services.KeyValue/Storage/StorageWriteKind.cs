namespace CamCube.Services.KeyValue.Storage;

/// <summary>What a <see cref="StorageWrite"/> changes.</summary>
public enum StorageWriteKind
{
    /// <summary>A write of a key's value or tombstone, kept when newer than what the key holds.</summary>
    Value,

    /// <summary>A promise to refuse every ballot of the key below a ballot, kept when higher than the key's promise.</summary>
    Promise,

    /// <summary>The removal of a key's tombstone, done when the key still holds exactly that tombstone.</summary>
    PurgeTombstone,
}
