using CamCube.Services.KeyValue.Messages;

namespace CamCube.Services.KeyValue;

/// <summary>
/// One call of <see cref="IKeyValueStore"/> on its way: posted to the node's loop with its state (no
/// closure, no extra task), asked there, and completed with the mapped answer or a
/// <see cref="KeyValueStoreException"/>. The caller's continuations run elsewhere, never on the loop.
/// </summary>
/// <typeparam name="T">What the caller gets.</typeparam>
internal sealed class ClientCall<T>(KeyValueService store, ClientRequest request, Func<ClientReply, T> map)
    : TaskCompletionSource<T>(TaskCreationOptions.RunContinuationsAsynchronously)
{
    /// <summary>Posted to the node's loop: runs a call there.</summary>
    public static readonly Action<object?> Start = static state => _ = ((ClientCall<T>)state!).RunAsync();

    /// <summary>Runs the call (on the node's loop) and completes the task.</summary>
    private async Task RunAsync()
    {
        try
        {
            TrySetResult(map(await store.CallOnLoopAsync(request).ConfigureAwait(true)));
        }
#pragma warning disable CA1031 // Whatever failed is the caller's, through its task.
        catch (Exception ex)
#pragma warning restore CA1031
        {
            TrySetException(ex);
        }
    }
}
