namespace CamCube.Services.KeyValue.Replication;

/// <summary>The copies to make t after a server became unreachable, if it is still unreachable then (camcubeos 5.2).</summary>
internal sealed class PendingReReplication
{
    /// <summary>Gets or sets the timer that fires at t.</summary>
    public ITimer? Timer { get; set; }

    /// <summary>Gets the key coordinates and the server that replaced the unreachable one in each one's replica set.</summary>
    public HashSet<(KeyCoordinate Coordinate, Coordinate Replacement)> Copies { get; } = [];
}
