namespace CamCube.KeyValueVsEtcd;

/// <summary>A store under load: etcd, or CamCube's key-value store through one of its interfaces.</summary>
internal interface IBenchTarget : IAsyncDisposable
{
    /// <summary>Gets the name in the result table.</summary>
    string Name { get; }

    /// <summary>Gets how an acknowledged write is made durable, for the result sheet.</summary>
    string Durability { get; }

    /// <summary>Gets the server processes whose CPU time a cell counts (empty when the store runs in this process).</summary>
    IReadOnlyList<int> ServerProcessIds { get; }

    /// <summary>Opens one load worker's client (its own connection where the protocol has them).</summary>
    /// <param name="worker">The worker's index, from 0.</param>
    /// <param name="cancellationToken">Cancels the connect.</param>
    /// <returns>The client; the worker disposes it.</returns>
    Task<IBenchClient> ConnectAsync(int worker, CancellationToken cancellationToken);
}
