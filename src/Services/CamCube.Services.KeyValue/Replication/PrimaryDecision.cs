using CamCube.Services.KeyValue.Storage;

namespace CamCube.Services.KeyValue.Replication;

/// <summary>What a key's primary decides for a write or delete from what the key holds (camcubeos 5.2: conditional writes are decided at the primary).</summary>
internal static class PrimaryDecision
{
    /// <summary>
    /// Decides whether a write or delete happens: <see cref="WriteStatus.Written"/> when its
    /// condition holds against <paramref name="held"/> (a delete of a key holding no value is
    /// <see cref="WriteStatus.NotFound"/> whatever the condition); otherwise why not, with the
    /// version the key holds (0 when it holds no value).
    /// </summary>
    public static WriteOutcome Decide(WriteCondition condition, StoredValue? held, bool isDelete)
    {
        var present = held is { IsDeleted: false };
        var version = present ? held!.Version : 0;
        if (isDelete && !present)
        {
            return new WriteOutcome(WriteStatus.NotFound, 0);
        }

        return condition.Kind switch
        {
            WriteConditionKind.IfAbsent when present => new WriteOutcome(WriteStatus.ConditionFailed, version),
            WriteConditionKind.IfPresent when !present => new WriteOutcome(WriteStatus.NotFound, 0),
            WriteConditionKind.IfVersion when !present => new WriteOutcome(WriteStatus.NotFound, 0),
            WriteConditionKind.IfVersion when version != condition.Version => new WriteOutcome(WriteStatus.ConditionFailed, version),
            _ => new WriteOutcome(WriteStatus.Written, version),
        };
    }
}
