using dotnet_etcd;
using Grpc.Core;

namespace CamCube.KeyValueVsEtcd;

/// <summary>etcd through the <c>dotnet-etcd</c> gRPC client, one client (one HTTP/2 channel per member) shared by every worker.</summary>
internal sealed class EtcdTarget : IBenchTarget
{
    private readonly EtcdClient _client;

    /// <summary>Creates the target over the cluster's client URLs.</summary>
    /// <param name="clientUrls">The members' client URLs.</param>
    /// <param name="serverProcessIds">The members' process ids.</param>
    public EtcdTarget(IReadOnlyList<string> clientUrls, IReadOnlyList<int> serverProcessIds)
    {
        ServerProcessIds = serverProcessIds;
        _client = new EtcdClient(string.Join(',', clientUrls), configureChannelOptions: options => options.Credentials = ChannelCredentials.Insecure);
    }

    /// <inheritdoc/>
    public string Name => "etcd";

    /// <inheritdoc/>
    public string Durability => EtcdCluster.Durability;

    /// <inheritdoc/>
    public IReadOnlyList<int> ServerProcessIds { get; }

    /// <inheritdoc/>
    public Task<IBenchClient> ConnectAsync(int worker, CancellationToken cancellationToken) =>
        Task.FromResult<IBenchClient>(new EtcdBenchClient(_client));

    /// <inheritdoc/>
    public ValueTask DisposeAsync()
    {
        _client.Dispose();
        return ValueTask.CompletedTask;
    }
}
