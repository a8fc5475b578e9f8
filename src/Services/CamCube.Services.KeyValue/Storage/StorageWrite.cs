namespace CamCube.Services.KeyValue.Storage;

/// <summary>
/// One item of a commit: a replica's write of a key, its promise to refuse every ballot of the key
/// below one (kept on disk, so a restarted server keeps the promises it made), or the removal of a
/// tombstone every replica holds.
/// </summary>
public readonly record struct StorageWrite
{
    /// <summary>Creates the write of <paramref name="value"/> to <paramref name="key"/>.</summary>
    /// <param name="key">The key.</param>
    /// <param name="value">The write; its version must be positive.</param>
    /// <exception cref="ArgumentNullException"><paramref name="value"/> is null.</exception>
    public StorageWrite(Key key, StoredValue value)
    {
        Key = key;
        Value = value ?? throw new ArgumentNullException(nameof(value));
        Number = value.Version;
    }

    private StorageWrite(Key key, StorageWriteKind kind, long number)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(number, 1);
        Key = key;
        Kind = kind;
        Number = number;
    }

    /// <summary>Gets what this item changes.</summary>
    public StorageWriteKind Kind { get; }

    /// <summary>Gets the key.</summary>
    public Key Key { get; }

    /// <summary>Gets the write, for <see cref="StorageWriteKind.Value"/>; null otherwise.</summary>
    public StoredValue? Value { get; }

    /// <summary>Gets the write's version, the promised ballot, or the version of the tombstone to remove.</summary>
    public long Number { get; }

    /// <summary>Creates a promise: the key refuses every ballot below <paramref name="ballot"/>.</summary>
    /// <param name="key">The key.</param>
    /// <param name="ballot">The promised ballot; positive.</param>
    /// <returns>The promise.</returns>
    /// <exception cref="ArgumentOutOfRangeException">The ballot is not positive.</exception>
    public static StorageWrite Promise(Key key, long ballot) => new(key, StorageWriteKind.Promise, ballot);

    /// <summary>Creates the removal of the key's tombstone of <paramref name="version"/>.</summary>
    /// <param name="key">The key.</param>
    /// <param name="version">The tombstone's version; positive.</param>
    /// <returns>The removal.</returns>
    /// <exception cref="ArgumentOutOfRangeException">The version is not positive.</exception>
    public static StorageWrite PurgeTombstone(Key key, long version) => new(key, StorageWriteKind.PurgeTombstone, version);
}
