using System.Buffers;

namespace CamCube.Services.Reliable;

/// <summary>A message being sent: its bytes, how far it has been fragmented, and the task its sender awaits.</summary>
internal sealed class OutgoingMessage
{
    private readonly TaskCompletionSource _completion = new(TaskCreationOptions.RunContinuationsAsynchronously);

    public OutgoingMessage(ReadOnlyMemory<byte> body, IMemoryOwner<byte>? owner, int packetCount)
    {
        Body = body;
        Owner = owner;
        PacketCount = packetCount;
    }

    /// <summary>Gets the message's bytes.</summary>
    public ReadOnlyMemory<byte> Body { get; }

    /// <summary>Gets the pooled buffer the message came in, disposed when it ends, or null.</summary>
    public IMemoryOwner<byte>? Owner { get; }

    /// <summary>Gets how many packets the message takes (1 for an empty one).</summary>
    public int PacketCount { get; }

    /// <summary>Gets or sets the sequence number of its first packet on its flow (valid once <see cref="FragmentsSent"/> is above 0).</summary>
    public uint FirstSequence { get; set; }

    /// <summary>Gets or sets how many of its packets have been sent at least once on the current flow.</summary>
    public int FragmentsSent { get; set; }

    /// <summary>Gets or sets whether a packet of it is known not to have arrived on the current flow (dropped on the way and never sent again), so the server cannot have had all of it.</summary>
    public bool KnownIncomplete { get; set; }

    /// <summary>Gets the sequence number after its last packet.</summary>
    public uint EndSequence => FirstSequence + (uint)PacketCount;

    /// <summary>Gets the task the sender awaits.</summary>
    public Task Task => _completion.Task;

    /// <summary>The peer has the whole message.</summary>
    public void Complete()
    {
        Owner?.Dispose();
        _completion.TrySetResult();
    }

    /// <summary>The message cannot be delivered.</summary>
    public void Fail(ReliableFailure reason, string text)
    {
        Owner?.Dispose();
        _completion.TrySetException(new ReliableTransferException(reason, text));
    }
}
