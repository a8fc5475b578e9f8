namespace CamCube.Services.KeyValue.FrontEnd;

/// <summary>The last flush_all: from <paramref name="EffectiveAtTicks"/> on, items written up to <paramref name="CutoffTicks"/> read as absent.</summary>
/// <param name="EffectiveAtTicks">When the flush takes effect, in UTC ticks; 0 for no flush.</param>
/// <param name="CutoffTicks">The last written time it hides, in UTC ticks: the effective time, or just after the flush before it when the clock has not moved on.</param>
internal readonly record struct FlushMark(long EffectiveAtTicks, long CutoffTicks)
{
    /// <summary>Gets whether an item written at <paramref name="writtenAtTicks"/> is hidden at <paramref name="nowTicks"/>.</summary>
    public bool Hides(long writtenAtTicks, long nowTicks) => EffectiveAtTicks != 0 && nowTicks >= EffectiveAtTicks && writtenAtTicks <= CutoffTicks;
}
