namespace CamCube.Services.KeyValue.Replication;

/// <summary>The keys this server holds at one key coordinate, and the replica set they had when last looked at.</summary>
internal sealed class WatchedKeys(Coordinate[] set)
{
    /// <summary>Gets or sets the replica set under the view of the last ownership change.</summary>
    public Coordinate[] Set { get; set; } = set;

    /// <summary>Gets the keys (usually one: distinct keys rarely share their 64 routing bits).</summary>
    public List<Key> Keys { get; } = [];
}
