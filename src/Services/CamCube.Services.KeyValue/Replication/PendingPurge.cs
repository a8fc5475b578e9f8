namespace CamCube.Services.KeyValue.Replication;

/// <summary>A tombstone to purge once its lifetime has passed, if the key's replica set is still <see cref="Set"/> then.</summary>
/// <param name="Key">The key.</param>
/// <param name="Version">The tombstone's version.</param>
/// <param name="Set">The replica set the delete was acknowledged with; null for a tombstone found at start (any full set then).</param>
/// <param name="DueTimestamp">When the lifetime has passed, on the node's clock (<see cref="TimeProvider.GetTimestamp"/>).</param>
internal readonly record struct PendingPurge(Key Key, long Version, Coordinate[]? Set, long DueTimestamp);
