namespace CamCube.Transport.Simulation.Experiments;

/// <summary>
/// The oracle of camcubeos 4.2.5: it has global knowledge of which servers are alive and checks
/// every delivery of a key-routed packet against the key's true root at that moment.
/// </summary>
/// <param name="cube">The cube whose live servers are the truth.</param>
public sealed class DeliveryOracle(SimulatedCube cube)
{
    /// <summary>Gets or sets whether packets count (cleared after the run, for the drain).</summary>
    public bool IsCountingSends { get; set; } = true;

    /// <summary>Gets how many packets were sent.</summary>
    public long Sent { get; private set; }

    /// <summary>Gets how many packets were delivered.</summary>
    public long Delivered { get; private set; }

    /// <summary>Gets how many packets were delivered to a server other than the key's true root.</summary>
    public long Misdelivered { get; private set; }

    /// <summary>Gets or sets what to call with (server, key, true root) on each misdelivery, to study them; may be null.</summary>
    public Action<Coordinate, KeyCoordinate, Coordinate>? MisdeliveryObserved { get; set; }

    /// <summary>Counts a packet sent.</summary>
    public void OnSent() => Sent++;

    /// <summary>Checks a delivery of a packet for <paramref name="key"/> at <paramref name="server"/>; returns whether it was right.</summary>
    public bool OnDelivered(Coordinate server, KeyCoordinate key)
    {
        ArgumentNullException.ThrowIfNull(cube);
        Delivered++;
        var root = cube.TrueRoot(key);
        if (root == server)
        {
            return true;
        }

        Misdelivered++;
        MisdeliveryObserved?.Invoke(server, key, root);
        return false;
    }
}
