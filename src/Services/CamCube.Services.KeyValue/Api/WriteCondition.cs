namespace CamCube.Services.KeyValue;

/// <summary>
/// What must hold at a key's primary for a write or delete to happen: nothing (the default),
/// that the key holds no value (memcached <c>add</c>), that it holds one (<c>replace</c>), or that
/// it holds exactly a given version (compare-and-swap, memcached <c>cas</c>).
/// </summary>
public readonly record struct WriteCondition
{
    private WriteCondition(WriteConditionKind kind, long version)
    {
        Kind = kind;
        Version = version;
    }

    /// <summary>Gets the condition that always holds.</summary>
    public static WriteCondition Always => default;

    /// <summary>Gets the condition that the key holds no value.</summary>
    public static WriteCondition IfAbsent => new(WriteConditionKind.IfAbsent, 0);

    /// <summary>Gets the condition that the key holds a value.</summary>
    public static WriteCondition IfPresent => new(WriteConditionKind.IfPresent, 0);

    /// <summary>Gets what is checked.</summary>
    public WriteConditionKind Kind { get; }

    /// <summary>Gets the version the key must hold, for <see cref="WriteConditionKind.IfVersion"/>.</summary>
    public long Version { get; }

    /// <summary>The condition that the key holds a value at exactly <paramref name="version"/> (compare-and-swap).</summary>
    /// <param name="version">The version read earlier; positive.</param>
    /// <returns>The condition.</returns>
    /// <exception cref="ArgumentOutOfRangeException">The version is not positive.</exception>
    public static WriteCondition IfVersion(long version)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(version);
        return new(WriteConditionKind.IfVersion, version);
    }
}
