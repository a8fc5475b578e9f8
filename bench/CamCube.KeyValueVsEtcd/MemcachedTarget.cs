using System.Net;

namespace CamCube.KeyValueVsEtcd;

/// <summary>
/// CamCube's key-value store through its memcached text-protocol front-ends (port 11311 + node
/// index on a cube): worker i connects to front-end i modulo their number, one connection each.
/// </summary>
/// <param name="frontEnds">The front-ends' endpoints (loopback).</param>
/// <param name="durability">How the cube makes an acknowledged write durable, for the result sheet.</param>
/// <param name="serverProcessIds">The cube's processes (supervisor and nodes), or none when unknown.</param>
internal sealed class MemcachedTarget(IReadOnlyList<IPEndPoint> frontEnds, string durability, IReadOnlyList<int> serverProcessIds) : IBenchTarget
{
    /// <inheritdoc/>
    public string Name => "store";

    /// <inheritdoc/>
    public string Durability => durability;

    /// <inheritdoc/>
    public IReadOnlyList<int> ServerProcessIds => serverProcessIds;

    /// <inheritdoc/>
    public async Task<IBenchClient> ConnectAsync(int worker, CancellationToken cancellationToken) =>
        await MemcachedBenchClient.ConnectAsync(frontEnds[worker % frontEnds.Count], cancellationToken).ConfigureAwait(false);

    /// <inheritdoc/>
    public ValueTask DisposeAsync() => ValueTask.CompletedTask;
}
