namespace CamCube.Transport.Simulation;

/// <summary>
/// A pending event as the engine's queue orders it: its due time, then its insertion sequence
/// (high bits of <see cref="Order"/>) and its slot in the queue's event table (low bits). Ordered
/// by (due, sequence); sequences are unique, so the order is total.
/// </summary>
internal readonly record struct EventEntry(long Due, ulong Order)
{
    /// <summary>The bits of <see cref="Order"/> that hold the slot.</summary>
    public const int SlotBits = 26;

    /// <summary>The largest slot, and the mask of the slot bits.</summary>
    public const int SlotMask = (1 << SlotBits) - 1;

    /// <summary>The largest insertion sequence.</summary>
    public const ulong SequenceMax = (1UL << (64 - SlotBits)) - 1;

    /// <summary>Gets the event's slot in the queue's event table.</summary>
    public int Slot => (int)(Order & SlotMask);

    /// <summary>Gets the event's insertion sequence.</summary>
    public long Sequence => (long)(Order >> SlotBits);

    /// <summary>Packs an entry; the caller checked the sequence and slot against their maxima.</summary>
    public static EventEntry Of(long due, long sequence, int slot) => new(due, ((ulong)sequence << SlotBits) | (uint)slot);

    /// <summary>Gets whether <paramref name="a"/> runs before <paramref name="b"/>.</summary>
    public static bool Before(in EventEntry a, in EventEntry b) =>
        a.Due < b.Due || (a.Due == b.Due && a.Order < b.Order);
}
