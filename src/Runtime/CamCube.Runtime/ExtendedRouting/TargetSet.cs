namespace CamCube.Runtime.ExtendedRouting;

/// <summary>The set K a queued packet may go towards; pooled by its router and attached to the packet while it waits.</summary>
internal sealed class TargetSet(int capacity)
{
    public KeyCoordinate[] Targets { get; } = new KeyCoordinate[capacity];

    public int Count { get; set; }

    public ReadOnlySpan<KeyCoordinate> AsSpan() => Targets.AsSpan(0, Count);
}
