using System.Buffers;
using CamCube.Services.Reliable;

namespace CamCube.Services.Cache;

/// <summary>A request of <see cref="CacheService.ExecuteAsync"/> or <see cref="CacheService.FlushAllAsync"/>: used once, answered through a task.</summary>
internal sealed class CacheTaskRequest : TaskRequest<CacheCall, CacheStatus, CacheResponse>
{
    /// <summary>Creates the request of <paramref name="request"/>.</summary>
    public CacheTaskRequest(CacheRequest request)
        : base(new CacheCall(
            request.Operation,
            request.Key,
            new ReadOnlySequence<byte>(request.Value),
            request.Flags,
            request.ExpirationSeconds,
            request.Operation is CacheOperation.Increment or CacheOperation.Decrement ? request.Delta : request.CasUnique))
    {
    }

    /// <summary>Creates a flush_all request.</summary>
    public CacheTaskRequest(int flushDelaySeconds)
        : base(CacheCall.Flush(flushDelaySeconds))
    {
    }

    /// <inheritdoc/>
    protected override CacheResponse Result(CacheStatus status, byte[] value) => status == CacheStatus.Hit
        ? new CacheResponse(status, value, ResponseFlags, ResponseVersion) { Hops = Hops }
        : CacheResponse.Of(status);
}
