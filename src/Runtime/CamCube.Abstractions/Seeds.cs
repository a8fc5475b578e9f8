namespace CamCube;

/// <summary>
/// Deterministic seed derivation. <see cref="HashCode"/> is randomised per process, so it must
/// never feed a seed: the same seed has to give the same run in every process and on every machine.
/// </summary>
public static class Seeds
{
    /// <summary>Mixes a base seed with a server's coordinate (SplitMix64 finaliser) into the seed of that server's random source.</summary>
    public static int For(int seed, Coordinate server, int stream = 0)
    {
        var z = ((ulong)(uint)seed << 32) ^ ((ulong)(uint)server.X * 0x9E3779B97F4A7C15UL) ^ ((ulong)(uint)server.Y << 21) ^ ((ulong)(uint)server.Z << 42) ^ ((ulong)(uint)stream * 0xD1B54A32D192ED03UL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9UL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBUL;
        z ^= z >> 31;
        return (int)(z ^ (z >> 32));
    }
}
