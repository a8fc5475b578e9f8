namespace CamCube.Services.KeyValue;

/// <summary>
/// A get of <see cref="IKeyValueStore.GetAsync"/>: one <see cref="StoreGet"/> and the caller's task,
/// which completes with a copy of the value. The caller's continuations run elsewhere, never on the loop.
/// </summary>
internal sealed class GetCall : TaskCompletionSource<VersionedValue?>, IGetOutcome
{
    /// <summary>Creates the call.</summary>
    public GetCall()
        : base(TaskCreationOptions.RunContinuationsAsynchronously)
    {
        Get = new StoreGet(this);
    }

    /// <summary>Gets the get it asks with.</summary>
    public StoreGet Get { get; }

    /// <inheritdoc/>
    public void Found(long version, ReadOnlySpan<byte> value) => TrySetResult(new VersionedValue(version, value.ToArray()));

    /// <inheritdoc/>
    public void Missing() => TrySetResult(null);

    /// <inheritdoc/>
    public void Failed(Exception error) => TrySetException(error);
}
