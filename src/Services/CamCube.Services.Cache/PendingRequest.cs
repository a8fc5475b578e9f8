namespace CamCube.Services.Cache;

/// <summary>A request between the front-end's thread and its answer: queued, then in flight on the node's loop.</summary>
internal sealed class PendingRequest(CacheRequest? request, int flushDelaySeconds = 0)
{
    private readonly TaskCompletionSource<CacheResponse> _completion = new(TaskCreationOptions.RunContinuationsAsynchronously);

    /// <summary>Gets the request, or null for flush_all.</summary>
    public CacheRequest? Request { get; } = request;

    public int FlushDelaySeconds { get; } = flushDelaySeconds;

    public uint RequestId { get; set; }

    /// <summary>Gets or sets when the request times out, a timestamp of the node's clock.</summary>
    public long Deadline { get; set; }

    /// <summary>Gets or sets how many flush acknowledgements are still to come.</summary>
    public int AcksLeft { get; set; }

    public Task<CacheResponse> Task => _completion.Task;

    public bool Complete(CacheResponse response) => _completion.TrySetResult(response);
}
