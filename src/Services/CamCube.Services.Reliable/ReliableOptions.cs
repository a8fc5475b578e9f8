namespace CamCube.Services.Reliable;

/// <summary>Settings of a <see cref="ReliableEndpoint"/>; the defaults suit a cube of 1 to 10 Gbps links.</summary>
public sealed record ReliableOptions
{
    /// <summary>The default first byte of the endpoint's packets: 0xE7.</summary>
    public const byte DefaultPacketTag = 0xE7;

    /// <summary>The default largest message: 64 MiB.</summary>
    public const int DefaultMessageBytesMax = 64 * 1024 * 1024;

    /// <summary>
    /// Gets the first payload byte of every packet of the endpoint, which tells them from the owning
    /// service's own packets (default <see cref="DefaultPacketTag"/>): the owner must never start a
    /// payload of its own with it.
    /// </summary>
    public byte PacketTag { get; init; } = DefaultPacketTag;

    /// <summary>Gets the largest message, in bytes (default 64 MiB); a larger one fails with <see cref="ReliableFailure.MessageTooLarge"/>.</summary>
    public int MessageBytesMax { get; init; } = DefaultMessageBytesMax;

    /// <summary>Gets the most packets of one flow sent and not yet acknowledged: the sliding window (default 64), also the most a receiver holds out of order per flow.</summary>
    public int WindowPacketsMax { get; init; } = 64;

    /// <summary>Gets the most messages queued to send over all flows (default 65,536); past it a send fails with <see cref="ReliableFailure.QueueFull"/>.</summary>
    public int QueuedMessagesMax { get; init; } = 65_536;

    /// <summary>The default bound on the bytes of messages being reassembled per endpoint: 256 MiB.</summary>
    public const long DefaultReassemblyBytesMax = 256L * 1024 * 1024;

    /// <summary>
    /// Gets the most bytes of messages a receiver reassembles at once, over all its flows (default
    /// 256 MiB): a message of more than one packet that would go past it is refused when its first
    /// packet arrives, and its sender's flow fails with <see cref="ReliableFailure.ReceiverFull"/>; the
    /// receiver keeps running. Held out-of-order packets are bounded by the window per flow and by
    /// <see cref="HeldPacketsMax"/> over all flows.
    /// </summary>
    public long ReassemblyBytesMax { get; init; } = DefaultReassemblyBytesMax;

    /// <summary>
    /// Gets the most data packets this endpoint holds ahead of order, over all its receive flows
    /// (default 4,096, about 36 MiB of 9,000-byte frames). Past it a packet ahead of order is not held:
    /// its acknowledgement leaves it out and its sender sends it again, so a peer that opens flows
    /// without end cannot make the receiver hold packets without end.
    /// </summary>
    public int HeldPacketsMax { get; init; } = 4_096;

    /// <summary>Gets the most one-packet exchanges this endpoint waits on at once (default 4,096); past it a request is refused with <see cref="ReliableFailure.QueueFull"/>.</summary>
    public int OpenExchangesMax { get; init; } = 4_096;

    /// <summary>
    /// Gets the most requests a responder remembers per requester (default 4,096): each keeps its reply
    /// to answer a duplicate. When full, the lowest id is forgotten if its exchange has ended, and a late
    /// copy of it is refused, never handled twice; while it still runs, a new request is answered busy
    /// and sent again later, so no open exchange is forgotten.
    /// </summary>
    public int AnsweredExchangesPerPeerMax { get; init; } = 4_096;

    /// <summary>Gets the retransmission timeout before the first round-trip sample (RFC 6298 2.1; default 200 ms, a data centre's, not the Internet's 1 s).</summary>
    public TimeSpan InitialRetransmissionTimeout { get; init; } = TimeSpan.FromMilliseconds(200);

    /// <summary>Gets the smallest retransmission timeout (default 1 ms; RFC 6298's 1 s is for the Internet).</summary>
    public TimeSpan MinimumRetransmissionTimeout { get; init; } = TimeSpan.FromMilliseconds(1);

    /// <summary>Gets the largest retransmission timeout, which bounds the backoff (default 2 s).</summary>
    public TimeSpan MaximumRetransmissionTimeout { get; init; } = TimeSpan.FromSeconds(2);

    /// <summary>
    /// Gets how many times its first timeout a copy of a one-packet request waits at most while no busy
    /// notice came (default 4): the timeout doubles twice, then the copies go at that pace, never slower
    /// than <see cref="MaximumRetransmissionTimeout"/>. A request is one packet and its copies are few, so
    /// an unbounded backoff buys little relief and costs a caller with a deadline most of it (under 5%
    /// loss on every hop, a few copies of a write lost in a row took it past a 5 s deadline). Once a busy
    /// notice says the request is at its handler, the copies only ask for the reply and keep doubling.
    /// </summary>
    public int ExchangeBackoffLimit { get; init; } = 4;

    /// <summary>Gets the clock granularity G of RFC 6298 (default 100 µs).</summary>
    public TimeSpan ClockGranularity { get; init; } = TimeSpan.FromMicroseconds(100);

    /// <summary>Gets how long a flow with unacknowledged packets may go without progress before its messages fail with <see cref="ReliableFailure.TimedOut"/> (default 10 s).</summary>
    public TimeSpan ProgressTimeout { get; init; } = TimeSpan.FromSeconds(10);

    /// <summary>
    /// Gets how long a receiver keeps the state of a flow that sends nothing (default 30 s); a sender
    /// forgets a flow with nothing to send after half of it. It must outlast
    /// <see cref="ProgressTimeout"/>, so that a late retransmission is still recognised as a duplicate.
    /// </summary>
    public TimeSpan ReceiveFlowIdleTimeout { get; init; } = TimeSpan.FromSeconds(30);

    /// <summary>Throws if an option is out of range.</summary>
    /// <exception cref="ArgumentOutOfRangeException">An option is out of range.</exception>
    public void Validate()
    {
        ArgumentOutOfRangeException.ThrowIfNegative(MessageBytesMax, nameof(MessageBytesMax));
        ArgumentOutOfRangeException.ThrowIfLessThan(WindowPacketsMax, 1, nameof(WindowPacketsMax));
        ArgumentOutOfRangeException.ThrowIfGreaterThan(WindowPacketsMax, 4_096, nameof(WindowPacketsMax));
        ArgumentOutOfRangeException.ThrowIfLessThan(QueuedMessagesMax, 1, nameof(QueuedMessagesMax));
        ArgumentOutOfRangeException.ThrowIfNegative(ReassemblyBytesMax, nameof(ReassemblyBytesMax));
        ArgumentOutOfRangeException.ThrowIfNegative(HeldPacketsMax, nameof(HeldPacketsMax));
        ArgumentOutOfRangeException.ThrowIfLessThan(OpenExchangesMax, 1, nameof(OpenExchangesMax));
        ArgumentOutOfRangeException.ThrowIfLessThan(AnsweredExchangesPerPeerMax, 1, nameof(AnsweredExchangesPerPeerMax));
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(MinimumRetransmissionTimeout, TimeSpan.Zero, nameof(MinimumRetransmissionTimeout));
        ArgumentOutOfRangeException.ThrowIfLessThan(MaximumRetransmissionTimeout, MinimumRetransmissionTimeout, nameof(MaximumRetransmissionTimeout));
        ArgumentOutOfRangeException.ThrowIfLessThan(InitialRetransmissionTimeout, MinimumRetransmissionTimeout, nameof(InitialRetransmissionTimeout));
        ArgumentOutOfRangeException.ThrowIfLessThan(ExchangeBackoffLimit, 1, nameof(ExchangeBackoffLimit));
        ArgumentOutOfRangeException.ThrowIfLessThan(ClockGranularity, TimeSpan.Zero, nameof(ClockGranularity));
        ArgumentOutOfRangeException.ThrowIfLessThan(ProgressTimeout, MaximumRetransmissionTimeout, nameof(ProgressTimeout));
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(ReceiveFlowIdleTimeout, ProgressTimeout, nameof(ReceiveFlowIdleTimeout));
    }
}
