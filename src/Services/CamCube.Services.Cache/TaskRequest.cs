using System.Buffers;

namespace CamCube.Services.Cache;

/// <summary>A request of <see cref="CacheService.ExecuteAsync"/> or <see cref="CacheService.FlushAllAsync"/>: used once, answered through a task.</summary>
internal sealed class TaskRequest : PendingRequest
{
    private readonly TaskCompletionSource<CacheResponse> _completion = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private byte[] _value = [];

    /// <summary>Creates the request of <paramref name="request"/>.</summary>
    public TaskRequest(CacheRequest request)
    {
        Operation = request.Operation;
        Key = request.Key;
        Value = new ReadOnlySequence<byte>(request.Value);
        Flags = request.Flags;
        ExpirationSeconds = request.ExpirationSeconds;
        CasOrDelta = request.Operation is CacheOperation.Increment or CacheOperation.Decrement ? request.Delta : request.CasUnique;
    }

    /// <summary>Creates a flush_all request.</summary>
    public TaskRequest(int flushDelaySeconds) => FlushDelaySeconds = flushDelaySeconds;

    public Task<CacheResponse> Task => _completion.Task;

    protected override Span<byte> ResponseBuffer(int length)
    {
        if (_value.Length != length)
        {
            _value = new byte[length];
        }

        return _value;
    }

    protected override void OnCompleted() => _completion.TrySetResult(Status == CacheStatus.Hit
        ? new CacheResponse(Status, _value, ResponseFlags, ResponseCas) { Hops = Hops }
        : CacheResponse.Of(Status));
}
