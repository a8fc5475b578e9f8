using CamCube.Messaging;

namespace CamCube.Services.KeyValue;

/// <summary>Settings of a <see cref="KeyValueService"/>; every node of a cube must use the same <see cref="ReplicaCount"/>.</summary>
public sealed record KeyValueServiceOptions
{
    /// <summary>Gets the default settings: r = 3, t = 180 s (camcubeos 5.2).</summary>
    public static KeyValueServiceOptions Default { get; } = new();

    /// <summary>Gets r: how many servers of <c>GetServersForKey</c> keep each key (camcubeos 5.2: 3 by default).</summary>
    public int ReplicaCount { get; init; } = 3;

    /// <summary>
    /// Gets t: how long after a server becomes unreachable its keys are copied to the servers that
    /// replaced it in their replica sets (camcubeos 5.2: 180 s, so a rebooting server causes no bulk migration).
    /// </summary>
    public TimeSpan ReReplicationDelay { get; init; } = TimeSpan.FromSeconds(180);

    /// <summary>Gets how long a call of <see cref="IKeyValueStore"/> waits in all, retries included, before it fails with <see cref="KeyValueFailure.TimedOut"/>.</summary>
    public TimeSpan RequestTimeout { get; init; } = TimeSpan.FromSeconds(5);

    /// <summary>Gets how long the primary waits for a replica's answer before the round fails.</summary>
    public TimeSpan ReplicationTimeout { get; init; } = TimeSpan.FromSeconds(1);

    /// <summary>Gets how long a call waits before it asks again when the key's primary could not serve it yet (a view still converging).</summary>
    public TimeSpan RetryDelay { get; init; } = TimeSpan.FromMilliseconds(10);

    /// <summary>
    /// Gets how the store's messages travel (every node of a cube must use the same):
    /// <see cref="MessageDelivery.BestEffort"/> (the default), one packet each, or
    /// <see cref="MessageDelivery.Reliable"/>, on the reliable transport, for values larger than a packet.
    /// </summary>
    public MessageDelivery Delivery { get; init; } = MessageDelivery.BestEffort;

    /// <summary>
    /// Gets the largest value, in bytes (8 KiB by default). With <see cref="MessageDelivery.BestEffort"/>
    /// a value travels in one packet, so the node's packet capacity lowers it further when smaller;
    /// with <see cref="MessageDelivery.Reliable"/> it may go up to the reliable transport's message
    /// limit (64 MiB by default). A larger value is refused with an <see cref="ArgumentException"/>.
    /// </summary>
    public int ValueBytesMax { get; init; } = 8 * 1024;

    /// <summary>
    /// Gets whether a server serves only while it reaches more than half of the cube's servers
    /// (default true): under a partition at most one side serves, so no acknowledged write is lost
    /// when it heals (docs/key-value-store.md).
    /// </summary>
    public bool RequireMajority { get; init; } = true;

    /// <summary>Gets how many keys one catch-up offer lists (a packet's worth).</summary>
    public int OfferKeysMax { get; init; } = 128;

    /// <summary>
    /// Gets where this server commits its writes (<see cref="CommitMode.Automatic"/> by default: on a
    /// thread of its own for a durable storage, on the node's loop for memory).
    /// </summary>
    public CommitMode Commits { get; init; } = CommitMode.Automatic;

    /// <summary>
    /// Gets how many writes may wait for a commit on a commit thread, beside the commit under way
    /// (4,096 by default). When the queue is full, the key's primary answers that it cannot serve
    /// the write now (the caller asks again until its time is up), and a replica refuses the write
    /// (the primary's round fails).
    /// </summary>
    public int CommitQueueWritesMax { get; init; } = 4096;

    /// <summary>
    /// Gets how long a delete's tombstone is kept before it is purged (24 h by default): it orders the
    /// delete against older writes still on their way or on a server that was away. Make it longer than
    /// any server stays away with its disk (docs/key-value-store.md states the rule).
    /// </summary>
    public TimeSpan TombstoneLifetime { get; init; } = TimeSpan.FromHours(24);

    /// <summary>Throws when a setting is out of range.</summary>
    /// <exception cref="ArgumentOutOfRangeException">A setting is out of range; the message names it.</exception>
    public void Validate()
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(ReplicaCount, 1, nameof(ReplicaCount));
        ArgumentOutOfRangeException.ThrowIfLessThan(ReReplicationDelay, TimeSpan.Zero, nameof(ReReplicationDelay));
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(RequestTimeout, TimeSpan.Zero, nameof(RequestTimeout));
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(ReplicationTimeout, TimeSpan.Zero, nameof(ReplicationTimeout));
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(RetryDelay, TimeSpan.Zero, nameof(RetryDelay));
        ArgumentOutOfRangeException.ThrowIfLessThan(ValueBytesMax, 0, nameof(ValueBytesMax));
        ArgumentOutOfRangeException.ThrowIfLessThan(OfferKeysMax, 1, nameof(OfferKeysMax));
        ArgumentOutOfRangeException.ThrowIfLessThan(CommitQueueWritesMax, 1, nameof(CommitQueueWritesMax));
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(TombstoneLifetime, TimeSpan.Zero, nameof(TombstoneLifetime));
        if (!Enum.IsDefined(Commits))
        {
            throw new ArgumentOutOfRangeException(nameof(Commits), Commits, "Not a commit mode.");
        }
    }
}
