namespace CamCube.Services.Reliable;

/// <summary>
/// What tells one life of a node from the next. A node's random source repeats with its seed, so a
/// restarted node draws its previous life's numbers; ids drawn from it alone would look old to the
/// peers that remember that life. The time of the draw, which differs from life to life (virtual in
/// the simulator, so a run still replays), is mixed in with SplitMix64's finaliser. Used for the
/// reliable transport's incarnations and the typed messages' request ids; any service that numbers
/// its messages from the node's random source can start from it.
/// </summary>
public static class NodeLife
{
    /// <summary>Mixes a random draw with the time of the draw into 64 well-spread bits.</summary>
    /// <param name="random">The node's random draw.</param>
    /// <param name="ticks">The node's clock now (UTC ticks).</param>
    /// <returns>The mixed bits: equal draws at different times give unrelated values.</returns>
    public static ulong Mix(ulong random, long ticks)
    {
        var mixed = (ulong)ticks ^ random;
        mixed = (mixed ^ (mixed >> 30)) * 0xBF58476D1CE4E5B9UL;
        mixed = (mixed ^ (mixed >> 27)) * 0x94D049BB133111EBUL;
        return mixed ^ (mixed >> 31);
    }
}
