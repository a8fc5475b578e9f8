using System.Buffers;

namespace CamCube.Services.Cache;

/// <summary>What one cache request asks: the operation and its arguments, as a request carries them to the root.</summary>
/// <param name="Operation">The operation; 0 for flush_all.</param>
/// <param name="Key">The key (borrowed until the request is sent).</param>
/// <param name="Value">The value of a store operation (borrowed until the request is sent).</param>
/// <param name="Flags">The item's opaque flags (store operations).</param>
/// <param name="ExpirationSeconds">The expiry relative to now, in seconds.</param>
/// <param name="CasOrDelta">The CAS unique value of a cas, or the delta of an increment or decrement: the one 64-bit argument on the wire.</param>
/// <param name="FlushDelaySeconds">The delay of a flush_all, in seconds.</param>
internal readonly record struct CacheCall(
    CacheOperation Operation,
    ReadOnlyMemory<byte> Key,
    ReadOnlySequence<byte> Value = default,
    uint Flags = 0,
    int ExpirationSeconds = 0,
    ulong CasOrDelta = 0,
    int FlushDelaySeconds = 0)
{
    /// <summary>Gets the call of a flush_all after <paramref name="delaySeconds"/>.</summary>
    public static CacheCall Flush(int delaySeconds) => new(0, default, FlushDelaySeconds: delaySeconds);
}
