using System.Numerics;

namespace CamCube.Transport.Simulation;

/// <summary>
/// A running 64-bit hash of the event trace, built from XXH64's 8-byte step and finished with its
/// avalanche. It depends only on the values added and their order, never on object identity,
/// string hash codes or the enumeration order of hashed collections, so it is the same on every
/// run and every machine.
/// </summary>
public struct TraceHash
{
    private const ulong Prime1 = 0x9E3779B185EBCA87UL;
    private const ulong Prime2 = 0xC2B2AE3D27D4EB4FUL;
    private const ulong Prime3 = 0x165667B19E3779F9UL;
    private const ulong Prime4 = 0x85EBCA77C2B2AE63UL;
    private const ulong Prime5 = 0x27D4EB2F165667C5UL;

    private ulong _accumulator;

    /// <summary>Starts an empty trace.</summary>
    public TraceHash()
    {
        _accumulator = Prime5;
    }

    /// <summary>Gets the hash of the values added so far.</summary>
    public readonly ulong Value
    {
        get
        {
            var h = _accumulator;
            h ^= h >> 33;
            h *= Prime2;
            h ^= h >> 29;
            h *= Prime3;
            h ^= h >> 32;
            return h;
        }
    }

    /// <summary>Adds one 64-bit value.</summary>
    public void Add(ulong value)
    {
        var lane = BitOperations.RotateLeft(value * Prime2, 31) * Prime1;
        _accumulator = (BitOperations.RotateLeft(_accumulator ^ lane, 27) * Prime1) + Prime4;
    }
}
