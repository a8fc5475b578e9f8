using CamCube.Packets;

namespace CamCube.Services.Reliable;

/// <summary>
/// The receiving half of one flow: the next sequence number it expects, the packets that arrived
/// ahead of it (held, at most a window of them), and the message being reassembled. Packets are
/// consumed strictly in sequence order, so messages come out whole and in order, each once.
/// </summary>
internal sealed class ReceiveFlow
{
    private readonly Packet?[] _held;
    private int _heldCount;

    public ReceiveFlow(int windowPackets) => _held = new Packet?[windowPackets];

    /// <summary>Gets or sets the sender.</summary>
    public Coordinate Source { get; set; }

    /// <summary>Gets or sets the flow id.</summary>
    public ulong FlowId { get; set; }

    /// <summary>Gets or sets the key of a flow to a key, or null.</summary>
    public KeyCoordinate? Key { get; set; }

    /// <summary>Gets the next sequence number to consume: everything below it was received.</summary>
    public uint Expected { get; private set; }

    /// <summary>Gets or sets when a packet of the flow last arrived, in timestamp ticks.</summary>
    public long LastHeard { get; set; }

    /// <summary>Gets or sets the buffer of the message being reassembled (pooled), or null.</summary>
    public byte[]? Assembly { get; set; }

    /// <summary>Gets or sets how many bytes of the message being reassembled arrived.</summary>
    public int AssembledBytes { get; set; }

    /// <summary>Gets or sets the length of the message being reassembled.</summary>
    public int AssemblyLength { get; set; }

    /// <summary>Gets or sets whether a message of the flow was refused (over the limit of a message, or for want of reassembly memory): the flow's packets are dropped once its packet is consumed, and every later packet of it is answered Refused until the flow is idle.</summary>
    public bool Refused { get; set; }

    /// <summary>Gets or sets whether the refused message was longer than the receiver's limit of a message (else its reassembly memory was full).</summary>
    public bool RefusedTooLarge { get; set; }

    /// <summary>Gets or sets whether the flow is to a key this server was not the root of when its first packet came: it was answered NotRoot, holds nothing, and every later packet of it is answered NotRoot until it is idle.</summary>
    public bool NotRoot { get; set; }

    /// <summary>Gets how many packets wait out of order.</summary>
    public int HeldCount => _heldCount;

    /// <summary>Sets the flow up for a new life.</summary>
    public void Reset(Coordinate source, ulong flowId, KeyCoordinate? key, long now)
    {
        Source = source;
        FlowId = flowId;
        Key = key;
        Expected = 0;
        LastHeard = now;
        Assembly = null;
        AssembledBytes = 0;
        AssemblyLength = 0;
        Refused = false;
        RefusedTooLarge = false;
        NotRoot = false;
    }

    /// <summary>Classifies <paramref name="sequence"/>: below the window (a duplicate), next in order, ahead within the window, or beyond it.</summary>
    public int Offset(uint sequence) => (int)(sequence - Expected);

    /// <summary>Gets whether the window can hold a packet at <paramref name="offset"/> from <see cref="Expected"/>.</summary>
    public bool InWindow(int offset) => offset >= 0 && offset < _held.Length;

    /// <summary>Holds a packet that arrived ahead of order; false (the caller drops it) if that sequence number is held already.</summary>
    public bool TryHold(uint sequence, Packet packet)
    {
        ref var slot = ref _held[sequence % (uint)_held.Length];
        if (slot is not null)
        {
            return false;
        }

        slot = packet;
        _heldCount++;
        return true;
    }

    /// <summary>The packet at <see cref="Expected"/> was consumed: moves on and returns the next one if it is held, which the caller then owns.</summary>
    public Packet? Advance()
    {
        Expected++;
        if (_heldCount == 0)
        {
            return null;
        }

        ref var slot = ref _held[Expected % (uint)_held.Length];
        var next = slot;
        if (next is not null)
        {
            slot = null;
            _heldCount--;
        }

        return next;
    }

    /// <summary>
    /// Writes the SACK blocks of the held packets, as start and end (exclusive) pairs in sequence
    /// order, at most <paramref name="blocks"/>.Length / 2 of them; returns how many blocks.
    /// </summary>
    public int WriteSackBlocks(Span<uint> blocks)
    {
        var count = 0;
        if (_heldCount == 0)
        {
            return 0;
        }

        var inBlock = false;
        for (var i = 1; i < _held.Length && count * 2 < blocks.Length; i++)
        {
            var s = Expected + (uint)i;
            var held = _held[s % (uint)_held.Length] is not null;
            if (held && !inBlock)
            {
                blocks[count * 2] = s;
                inBlock = true;
            }
            else if (!held && inBlock)
            {
                blocks[(count * 2) + 1] = s;
                count++;
                inBlock = false;
            }
        }

        if (inBlock)
        {
            blocks[(count * 2) + 1] = Expected + (uint)_held.Length;
            count++;
        }

        return count;
    }

    /// <summary>Releases every held packet and forgets the message being reassembled (its buffer goes back by the caller).</summary>
    public void ReleaseHeld()
    {
        for (var i = 0; i < _held.Length; i++)
        {
            _held[i]?.Release();
            _held[i] = null;
        }

        _heldCount = 0;
    }
}
