namespace CamCube.Runtime.ExtendedRouting;

/// <summary>The set K a queued packet may go towards; pooled by its router and attached to the packet while it waits.</summary>
internal sealed class TargetSet(int capacity)
{
    public KeyCoordinate[] Targets { get; } = new KeyCoordinate[capacity];

    /// <summary>Gets, per target, the links on a shortest path to it, found when the packet was queued.</summary>
    public byte[] Links { get; } = new byte[capacity];

    public int Count { get; set; }

    public ReadOnlySpan<KeyCoordinate> AsSpan() => Targets.AsSpan(0, Count);

    /// <summary>Copies the targets and their links into <paramref name="other"/>.</summary>
    public void CopyTo(TargetSet other)
    {
        AsSpan().CopyTo(other.Targets);
        Links.AsSpan(0, Count).CopyTo(other.Links);
        other.Count = Count;
    }
}
