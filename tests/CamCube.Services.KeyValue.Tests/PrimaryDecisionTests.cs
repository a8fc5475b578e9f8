using CamCube.Services.KeyValue.Replication;
using CamCube.Services.KeyValue.Storage;

namespace CamCube.Services.KeyValue.Tests;

public sealed class PrimaryDecisionTests
{
    private static readonly StoredValue s_held = new(42, [1, 2, 3]);
    private static readonly StoredValue s_tombstone = new(43, null);

    [Fact]
    public void AlwaysWritesWhenTheKeyHoldsAValueOrNone()
    {
        Assert.Equal(new WriteOutcome(WriteStatus.Written, 42), PrimaryDecision.Decide(WriteCondition.Always, s_held, isDelete: false));
        Assert.Equal(new WriteOutcome(WriteStatus.Written, 0), PrimaryDecision.Decide(WriteCondition.Always, null, isDelete: false));
        Assert.Equal(new WriteOutcome(WriteStatus.Written, 0), PrimaryDecision.Decide(WriteCondition.Always, s_tombstone, isDelete: false));
    }

    [Fact]
    public void IfAbsentFailsWhenTheKeyHoldsAValueAndWritesOverATombstone()
    {
        Assert.Equal(new WriteOutcome(WriteStatus.ConditionFailed, 42), PrimaryDecision.Decide(WriteCondition.IfAbsent, s_held, isDelete: false));
        Assert.Equal(WriteStatus.Written, PrimaryDecision.Decide(WriteCondition.IfAbsent, s_tombstone, isDelete: false).Status);
        Assert.Equal(WriteStatus.Written, PrimaryDecision.Decide(WriteCondition.IfAbsent, null, isDelete: false).Status);
    }

    [Fact]
    public void IfPresentIsNotFoundWhenTheKeyHoldsNoValue()
    {
        Assert.Equal(new WriteOutcome(WriteStatus.NotFound, 0), PrimaryDecision.Decide(WriteCondition.IfPresent, null, isDelete: false));
        Assert.Equal(new WriteOutcome(WriteStatus.NotFound, 0), PrimaryDecision.Decide(WriteCondition.IfPresent, s_tombstone, isDelete: false));
        Assert.Equal(WriteStatus.Written, PrimaryDecision.Decide(WriteCondition.IfPresent, s_held, isDelete: false).Status);
    }

    [Fact]
    public void IfVersionWritesOnlyWhenTheHeldVersionIsExactlyTheGivenOne()
    {
        Assert.Equal(WriteStatus.Written, PrimaryDecision.Decide(WriteCondition.IfVersion(42), s_held, isDelete: false).Status);
        Assert.Equal(new WriteOutcome(WriteStatus.ConditionFailed, 42), PrimaryDecision.Decide(WriteCondition.IfVersion(41), s_held, isDelete: false));
        Assert.Equal(new WriteOutcome(WriteStatus.NotFound, 0), PrimaryDecision.Decide(WriteCondition.IfVersion(43), s_tombstone, isDelete: false));
    }

    [Fact]
    public void DeleteIsNotFoundWhenTheKeyHoldsNoValueWhateverTheCondition()
    {
        Assert.Equal(new WriteOutcome(WriteStatus.NotFound, 0), PrimaryDecision.Decide(WriteCondition.Always, null, isDelete: true));
        Assert.Equal(new WriteOutcome(WriteStatus.NotFound, 0), PrimaryDecision.Decide(WriteCondition.IfAbsent, s_tombstone, isDelete: true));
        Assert.Equal(WriteStatus.Written, PrimaryDecision.Decide(WriteCondition.IfVersion(42), s_held, isDelete: true).Status);
    }
}
