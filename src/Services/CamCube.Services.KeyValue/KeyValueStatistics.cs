namespace CamCube.Services.KeyValue;

/// <summary>What one server's store did: writes, take-overs, and the keys and bytes it copied to catch servers up and restore r copies (camcubeos 5.2).</summary>
public sealed class KeyValueStatistics
{
    /// <summary>Gets the writes and deletes this server acknowledged as primary.</summary>
    public long WritesAcknowledged { get; internal set; }

    /// <summary>Gets the writes of <see cref="WritesAcknowledged"/> that waited with later unconditional sets of their key and were written in the same round, superseded by the last (no accept of their own).</summary>
    public long WritesSupersededInTheirRound { get; internal set; }

    /// <summary>Gets the writes this server sent to replicas as primary (an accept each).</summary>
    public long AcceptsSent { get; internal set; }

    /// <summary>Gets the accepts this server sent a replica once more after the first timed out or found it unreachable (reliable delivery).</summary>
    public long AcceptsSentAgain { get; internal set; }

    /// <summary>Gets the messages that carried <see cref="AcceptsSent"/>: the accepts of one turn to one replica travel together.</summary>
    public long AcceptMessagesSent { get; internal set; }

    /// <summary>Gets the writes every other replica refused (a newer ballot) after this server, as primary, had committed its own copy: it took the key back at once to learn whether the write survived.</summary>
    public long RefusedWritesSettled { get; internal set; }

    /// <summary>Gets the writes whose accept to a replica failed as that replica left the key's set (it died, or its links were cut): this server, still the primary, finished them on the new set rather than answer that they may or may not have taken effect.</summary>
    public long WritesFinishedOnANewSet { get; internal set; }

    /// <summary>Gets the writes a front-end asked again after losing the answer (their primary became unreachable) that this server, as primary, knew had taken effect: answered with their version, not written twice.</summary>
    public long WritesAnsweredAgain { get; internal set; }

    /// <summary>Gets the commits (one disk write each for SQLite) this server ran on its node's loop: a turn's few writes while its commit thread was idle, or every commit without one.</summary>
    public long CommitsOnLoop { get; internal set; }

    /// <summary>Gets the commits this server's commit thread ran: a turn's many writes, or those that came while a commit ran. Written by that thread: read on the loop, it may lag by a commit.</summary>
    public long CommitsOnThread { get; internal set; }

    /// <summary>Gets the tombstones this server purged as primary (after every replica did).</summary>
    public long TombstonesPurged { get; internal set; }

    /// <summary>Gets how many times this server took a key over as its primary (a ballot of its own).</summary>
    public long TakeOvers { get; internal set; }

    /// <summary>Gets how many first writes of a key this primary acknowledged after one round, sent with its take-over.</summary>
    public long FirstWritesInOneRound { get; internal set; }

    /// <summary>Gets how many first writes sent with a take-over found a replica that knew the key (or failed), so the key was taken over first.</summary>
    public long FirstWritesTakenOverFirst { get; internal set; }

    /// <summary>Gets how many times this server, as a key's primary, kept its ballot when the key's replica set changed and brought the servers new to the set up to date (no take-over).</summary>
    public long SetExtensions { get; internal set; }

    /// <summary>Gets the reads this server answered as primary under its read lease, without asking the other replicas.</summary>
    public long ReadsUnderLease { get; internal set; }

    /// <summary>Gets the reads of <see cref="ReadsUnderLease"/> answered after the key's own lease had run out, while renewals in bulk kept it (<see cref="KeyValueServiceOptions.LeaseRenewalIdleTime"/>).</summary>
    public long ReadsUnderRenewedLease { get; internal set; }

    /// <summary>Gets the reads of <see cref="ReadsUnderLease"/> answered in the upcall that brought them (the key idle, its value held), without a later turn of the loop.</summary>
    public long ReadsAnsweredAtOnce { get; internal set; }

    /// <summary>Gets the reads (and refused conditional writes) for which this server, as primary, checked its ballot with the other replicas.</summary>
    public long ReadConfirms { get; internal set; }

    /// <summary>Gets the renewals in bulk of its read leases this server sent as a primary (one message to one replica each).</summary>
    public long LeaseRenewalsSent { get; internal set; }

    /// <summary>Gets the renewals in bulk this server granted as a replica.</summary>
    public long LeaseRenewalsGranted { get; internal set; }

    /// <summary>Gets the leases this server, as a replica, held no longer than the holder's renewals' present end because the holder gave the key up (another server wanted it).</summary>
    public long LeasesReleased { get; internal set; }

    /// <summary>Gets the gets this server answered itself from a front-end lease a key's primary granted it (no hop).</summary>
    public long ReadsFromFrontEndLease { get; internal set; }

    /// <summary>Gets the front-end leases this server granted as a key's primary, with gets of other servers.</summary>
    public long FrontEndLeasesGranted { get; internal set; }

    /// <summary>Gets the front-end leases this server granted as a key's primary with the answer to a write another server made: the writer answers the key's next gets with the value it wrote.</summary>
    public long FrontEndLeasesGrantedOnWrites { get; internal set; }

    /// <summary>Gets the front-end leases this server took with the answer to its own write of a key.</summary>
    public long FrontEndLeasesTakenOnWrites { get; internal set; }

    /// <summary>Gets the front-end leases this server, as a key's primary, had dropped by their holders before a write.</summary>
    public long FrontEndLeasesDropped { get; internal set; }

    /// <summary>Gets the front-end leases this server, as a key's primary, waited out before a write because their holder did not answer.</summary>
    public long FrontEndLeaseWaits { get; internal set; }

    /// <summary>Gets how many times a take-over waited for a read lease granted to another primary (or a replica's start) to run out.</summary>
    public long LeaseWaits { get; internal set; }

    /// <summary>Gets the keys this server offered to others (entries of catch-up and re-replication digests).</summary>
    public long KeysOffered { get; internal set; }

    /// <summary>Gets how many of this server's offers failed (no answer within the replication timeout, or the server went away or restarted meanwhile); each is tried again or, the last, given up until the server comes back.</summary>
    public long OffersFailed { get; internal set; }

    /// <summary>Gets the values this server copied to a server that came back and lacked them (catch-up).</summary>
    public long CatchUpKeysSent { get; internal set; }

    /// <summary>Gets the value bytes of <see cref="CatchUpKeysSent"/>.</summary>
    public long CatchUpBytesSent { get; internal set; }

    /// <summary>Gets the values this server copied to a server that replaced one unreachable for t (re-replication).</summary>
    public long ReReplicationKeysSent { get; internal set; }

    /// <summary>Gets the value bytes of <see cref="ReReplicationKeysSent"/>.</summary>
    public long ReReplicationBytesSent { get; internal set; }

    /// <summary>Gets the copied values this server kept (newer than what it held).</summary>
    public long KeysReceived { get; internal set; }

    /// <summary>Gets the value bytes of <see cref="KeysReceived"/>.</summary>
    public long BytesReceived { get; internal set; }
}
