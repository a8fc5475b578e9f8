using System.Buffers;

namespace CamCube.Services.Reliable;

/// <summary>A message being sent: its bytes, how far it has been fragmented, and how its sender hears the end (a task, or a callback on the loop).</summary>
internal sealed class OutgoingMessage
{
    private readonly TaskCompletionSource? _completion;
    private readonly INodeContext? _node;
    private readonly Stack<OutgoingMessage>? _pool;
    private ReliableSendCompletion? _callback;
    private object? _state;
    private ReliableTransferException? _error;

    /// <summary>Creates a message whose sender awaits <see cref="Task"/>.</summary>
    public OutgoingMessage(ReadOnlyMemory<byte> body, IMemoryOwner<byte>? owner, int packetCount)
    {
        Body = body;
        Owner = owner;
        PacketCount = packetCount;
        _completion = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
    }

    /// <summary>
    /// Creates an empty message whose sender hears the end through a callback posted to
    /// <paramref name="node"/>'s loop; once the callback has run it goes back to <paramref name="pool"/>,
    /// so sending this way allocates nothing per message. <see cref="Reset"/> fills it.
    /// </summary>
    public OutgoingMessage(INodeContext node, Stack<OutgoingMessage> pool)
    {
        _node = node;
        _pool = pool;
    }

    /// <summary>Gets the message's bytes.</summary>
    public ReadOnlyMemory<byte> Body { get; private set; }

    /// <summary>Gets the pooled buffer the message came in, disposed when it ends, or null.</summary>
    public IMemoryOwner<byte>? Owner { get; private set; }

    /// <summary>Gets how many packets the message takes (1 for an empty one).</summary>
    public int PacketCount { get; private set; }

    /// <summary>Gets or sets the sequence number of its first packet on its flow (valid once <see cref="FragmentsSent"/> is above 0).</summary>
    public uint FirstSequence { get; set; }

    /// <summary>Gets or sets how many of its packets have been sent at least once on the current flow.</summary>
    public int FragmentsSent { get; set; }

    /// <summary>Gets or sets whether a packet of it is known not to have arrived on the current flow (dropped on the way and never sent again), so the server cannot have had all of it.</summary>
    public bool KnownIncomplete { get; set; }

    /// <summary>Gets the sequence number after its last packet.</summary>
    public uint EndSequence => FirstSequence + (uint)PacketCount;

    /// <summary>Gets the task the sender awaits (a completed one for a message sent with a callback).</summary>
    public Task Task => _completion?.Task ?? Task.CompletedTask;

    /// <summary>Fills a pooled message (one made with a callback) for a new send.</summary>
    public void Reset(ReadOnlyMemory<byte> body, IMemoryOwner<byte>? owner, int packetCount, ReliableSendCompletion callback, object? state)
    {
        Body = body;
        Owner = owner;
        PacketCount = packetCount;
        FirstSequence = 0;
        FragmentsSent = 0;
        KnownIncomplete = false;
        _callback = callback;
        _state = state;
        _error = null;
    }

    /// <summary>The peer has the whole message.</summary>
    public void Complete() => End(null);

    /// <summary>The message cannot be delivered.</summary>
    public void Fail(ReliableFailure reason, string text) => End(new ReliableTransferException(reason, text));

    private void End(ReliableTransferException? error)
    {
        Owner?.Dispose();
        if (_completion is not null)
        {
            if (error is null)
            {
                _completion.TrySetResult();
            }
            else
            {
                _completion.TrySetException(error);
            }

            return;
        }

        // The callback runs in a later turn, never inside the endpoint's own bookkeeping.
        _error = error;
        if (!_node!.TryPost(static state => ((OutgoingMessage)state!).RunCallback(), this))
        {
            RunCallback();
        }
    }

    private void RunCallback()
    {
        var callback = _callback!;
        var state = _state;
        var error = _error;
        Body = default;
        Owner = null;
        _callback = null;
        _state = null;
        _error = null;
        _pool!.Push(this);
        callback(state, error);
    }
}
