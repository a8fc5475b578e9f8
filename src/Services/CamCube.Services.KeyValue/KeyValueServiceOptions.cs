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

    /// <summary>
    /// Gets how long a read waits for one attempt's answer before it asks again, within
    /// <see cref="RequestTimeout"/> (500 ms by default): a read has no effect, so one whose request or
    /// reply was lost is asked again rather than waited on for the whole time. A write is never asked
    /// again on a lost answer (it may have been applied); on the reliable transport its one attempt is
    /// resent by the transport and runs exactly once.
    /// </summary>
    public TimeSpan ReadAttemptTimeout { get; init; } = TimeSpan.FromMilliseconds(500);

    /// <summary>Gets how long the primary waits for a replica's answer before the round fails (an accept that timed out is sent once more and waits what is left of <see cref="RequestTimeout"/>).</summary>
    public TimeSpan ReplicationTimeout { get; init; } = TimeSpan.FromSeconds(1);

    /// <summary>Gets how long a call waits before it asks again when the key's primary could not serve it yet (a view still converging).</summary>
    public TimeSpan RetryDelay { get; init; } = TimeSpan.FromMilliseconds(10);

    /// <summary>
    /// Gets how the store's messages travel (every node of a cube must use the same; a server of the
    /// other kind drops them as malformed): <see cref="MessageDelivery.Reliable"/> (the default), on the
    /// reliable transport's one-packet exchanges (a request that fits one packet and its reply: two
    /// packets without loss, as best effort; a lost one is resent on the peer's retransmission timeout
    /// and the handler runs once, so a write is never applied twice) and flows for values larger than a
    /// packet; or <see cref="MessageDelivery.BestEffort"/>, one packet each way, where a lost request or
    /// reply of a write costs the whole <see cref="RequestTimeout"/> (docs/key-value-store.md, "Limits").
    /// </summary>
    public MessageDelivery Delivery { get; init; } = MessageDelivery.Reliable;

    /// <summary>
    /// Gets the largest value, in bytes (8 KiB by default: a memcached item of the front-end's, and a
    /// write that stays a few packets; raise it for larger values). With <see cref="MessageDelivery.Reliable"/>
    /// it may go up to the reliable transport's message limit (64 MiB by default); with
    /// <see cref="MessageDelivery.BestEffort"/> a value travels in one packet, so the node's packet
    /// capacity lowers it further when smaller. A larger value is refused with an <see cref="ArgumentException"/>.
    /// </summary>
    public int ValueBytesMax { get; init; } = 8 * 1024;

    /// <summary>
    /// Gets whether a server serves only while it reaches more than half of the cube's servers
    /// (default true): under a partition at most one side serves, so no acknowledged write is lost
    /// when it heals (docs/key-value-store.md).
    /// </summary>
    public bool RequireMajority { get; init; } = true;

    /// <summary>
    /// Gets how long a read lease lasts (2 s by default): the other replicas of a key grant its
    /// primary a lease with every promise and every answer to an accept, and refuse to promise a
    /// higher ballot until it ran out on their clock, so the primary serves reads from what it
    /// holds, without asking them, while its lease runs. Fail-over of a key waits for it (at most
    /// this long), and a server refuses promises for this long after it starts. Zero turns leases
    /// off: every read checks the primary's ballot with the other replicas (docs/key-value-store.md).
    /// </summary>
    public TimeSpan ReadLease { get; init; } = TimeSpan.FromSeconds(2);

    /// <summary>
    /// Gets how much earlier than its replicas the primary takes its lease to end (50 ms by default):
    /// the most two servers' monotonic clocks may drift apart over one <see cref="ReadLease"/>.
    /// Less than <see cref="ReadLease"/> when leases are on.
    /// </summary>
    public TimeSpan LeaseDriftMargin { get; init; } = TimeSpan.FromMilliseconds(50);

    /// <summary>
    /// Gets how long a primary keeps renewing its read leases in bulk after it last took or used
    /// one (1 min by default; zero: never). While it does, one message to each replica of its keys
    /// every third of a <see cref="ReadLease"/> keeps in force every lease that replica granted it,
    /// so a key read long after its last write is still answered without asking the replicas. A
    /// replica that refuses another server's ballot only because of these renewals tells the
    /// primary, which gives the key up unless it is still the key's primary in its own view; the
    /// fail-over then waits at most about one more lease (docs/key-value-store.md).
    /// </summary>
    public TimeSpan LeaseRenewalIdleTime { get; init; } = TimeSpan.FromMinutes(1);

    /// <summary>
    /// Gets how long a server that read or wrote a key through its primary may answer later gets of
    /// the key itself (2 s by default, a read lease's length; zero: never): the primary grants such a
    /// front-end lease with the reply, never past its own read lease, and before any write of the key
    /// it tells every holder to drop it, or waits until the lease ran out when a holder does not
    /// answer (a write of a key whose holder crashed waits that long, as a fail-over waits out the
    /// primary's lease). Reads then cost no hop while nothing writes the key. Only with read leases
    /// on (<see cref="ReadLease"/>).
    /// </summary>
    public TimeSpan FrontEndLease { get; init; } = TimeSpan.FromSeconds(2);

    /// <summary>Gets how many keys a server holds front-end leases on at once (65,536 by default); past it, gets ask the primary.</summary>
    public int FrontEndLeasesMax { get; init; } = 65_536;

    /// <summary>Gets how many keys' newest values the primary keeps in memory to answer reads without reading its storage (100,000 by default; 0: none).</summary>
    public int HeldValuesMax { get; init; } = 100_000;

    /// <summary>
    /// Gets whether a key's first write takes one round instead of two (true by default): a primary
    /// that has never seen the key sends the write with its take-over (<c>Prepare</c>), and replicas
    /// that have never seen it either keep it with their promise. Only for an unconditional put asked
    /// for the first time; anything else, or any replica that knows the key, takes the key over
    /// first as always. False: every first write waits for the take-over round.
    /// </summary>
    public bool FirstWriteInOneRound { get; init; } = true;

    /// <summary>Gets how many keys one catch-up offer lists (a packet's worth).</summary>
    public int OfferKeysMax { get; init; } = 128;

    /// <summary>
    /// Gets where this server commits its writes (<see cref="CommitMode.Automatic"/> by default: on a
    /// thread of its own for a durable storage, on the node's loop for memory).
    /// </summary>
    public CommitMode Commits { get; init; } = CommitMode.Automatic;

    /// <summary>
    /// Gets commit threads this server shares with the other servers of its process, or null (the
    /// default: a thread of its own, as <see cref="Commits"/> says). For many nodes in one process
    /// that share one loop, where a thread per server would crowd the cores; the pool's owner
    /// disposes it after the servers stopped. Not with <see cref="CommitMode.OnLoop"/>.
    /// </summary>
    public KeyValueCommitPool? CommitPool { get; init; }

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
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(ReadAttemptTimeout, TimeSpan.Zero, nameof(ReadAttemptTimeout));
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(ReplicationTimeout, TimeSpan.Zero, nameof(ReplicationTimeout));
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(RetryDelay, TimeSpan.Zero, nameof(RetryDelay));
        ArgumentOutOfRangeException.ThrowIfLessThan(ValueBytesMax, 0, nameof(ValueBytesMax));
        ArgumentOutOfRangeException.ThrowIfLessThan(OfferKeysMax, 1, nameof(OfferKeysMax));
        ArgumentOutOfRangeException.ThrowIfLessThan(ReadLease, TimeSpan.Zero, nameof(ReadLease));
        ArgumentOutOfRangeException.ThrowIfLessThan(LeaseDriftMargin, TimeSpan.Zero, nameof(LeaseDriftMargin));
        ArgumentOutOfRangeException.ThrowIfLessThan(LeaseRenewalIdleTime, TimeSpan.Zero, nameof(LeaseRenewalIdleTime));
        ArgumentOutOfRangeException.ThrowIfLessThan(HeldValuesMax, 0, nameof(HeldValuesMax));
        ArgumentOutOfRangeException.ThrowIfLessThan(FrontEndLease, TimeSpan.Zero, nameof(FrontEndLease));
        ArgumentOutOfRangeException.ThrowIfLessThan(FrontEndLeasesMax, 0, nameof(FrontEndLeasesMax));
        if (ReadLease > TimeSpan.Zero && LeaseDriftMargin >= ReadLease)
        {
            throw new ArgumentOutOfRangeException(
                nameof(LeaseDriftMargin),
                LeaseDriftMargin,
                $"The lease drift margin ({LeaseDriftMargin.TotalMilliseconds:0.###} ms) must be shorter than the read lease ({ReadLease.TotalMilliseconds:0.###} ms), or the primary never holds a lease; set ReadLease to 0 to turn leases off.");
        }

        ArgumentOutOfRangeException.ThrowIfLessThan(CommitQueueWritesMax, 1, nameof(CommitQueueWritesMax));
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(TombstoneLifetime, TimeSpan.Zero, nameof(TombstoneLifetime));
        if (!Enum.IsDefined(Delivery))
        {
            throw new ArgumentOutOfRangeException(nameof(Delivery), Delivery, "Not a message delivery.");
        }

        if (!Enum.IsDefined(Commits))
        {
            throw new ArgumentOutOfRangeException(nameof(Commits), Commits, "Not a commit mode.");
        }

        if (CommitPool is not null && Commits == CommitMode.OnLoop)
        {
            throw new ArgumentException("Commits is OnLoop, so this server commits on its loop; a CommitPool is for commits off the loop: set one or the other.", nameof(CommitPool));
        }
    }
}
