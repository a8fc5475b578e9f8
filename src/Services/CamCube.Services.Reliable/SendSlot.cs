namespace CamCube.Services.Reliable;

/// <summary>One packet of a flow's send window: which fragment it carries and what became of it.</summary>
internal struct SendSlot
{
    /// <summary>The message the packet carries a fragment of.</summary>
    public OutgoingMessage? Message;

    /// <summary>The fragment's offset in the message, in bytes.</summary>
    public int Offset;

    /// <summary>The fragment's length, in bytes.</summary>
    public int Length;

    /// <summary>When it was last sent, in timestamp ticks.</summary>
    public long SentTimestamp;

    /// <summary>Whether it was sent more than once (Karn's rule: then it gives no round-trip sample).</summary>
    public bool Retransmitted;

    /// <summary>Whether the receiver holds it (selectively acknowledged).</summary>
    public bool Sacked;

    /// <summary>Whether it is deemed lost and waits to be sent again.</summary>
    public bool Lost;
}
