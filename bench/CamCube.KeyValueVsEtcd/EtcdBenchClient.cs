using dotnet_etcd;
using Etcdserverpb;
using Google.Protobuf;

namespace CamCube.KeyValueVsEtcd;

/// <summary>
/// One worker's etcd calls: Put, a linearizable Range of one key, and a Txn that compares the
/// key's mod revision and puts on success (etcd's compare-and-swap).
/// </summary>
internal sealed class EtcdBenchClient(EtcdClient client) : IBenchClient
{
    /// <inheritdoc/>
    public async Task PutAsync(string key, ReadOnlyMemory<byte> value, CancellationToken cancellationToken)
    {
        var request = new PutRequest { Key = ByteString.CopyFromUtf8(key), Value = ByteString.CopyFrom(value.Span) };
        await client.PutAsync(request, cancellationToken: cancellationToken).ConfigureAwait(false);
    }

    /// <inheritdoc/>
    public async Task<(long Version, int Length)> GetAsync(string key, CancellationToken cancellationToken)
    {
        var response = await client.GetAsync(new RangeRequest { Key = ByteString.CopyFromUtf8(key) }, cancellationToken: cancellationToken).ConfigureAwait(false);
        return response.Kvs.Count == 0 ? (0, 0) : (response.Kvs[0].ModRevision, response.Kvs[0].Value.Length);
    }

    /// <inheritdoc/>
    public async Task<bool> CompareAndSwapAsync(string key, long version, ReadOnlyMemory<byte> value, CancellationToken cancellationToken)
    {
        var keyBytes = ByteString.CopyFromUtf8(key);
        var request = new TxnRequest();
        request.Compare.Add(new Compare
        {
            Key = keyBytes,
            Target = Compare.Types.CompareTarget.Mod,
            Result = Compare.Types.CompareResult.Equal,
            ModRevision = version,
        });
        request.Success.Add(new RequestOp { RequestPut = new PutRequest { Key = keyBytes, Value = ByteString.CopyFrom(value.Span) } });
        var response = await client.TransactionAsync(request, cancellationToken: cancellationToken).ConfigureAwait(false);
        return response.Succeeded;
    }

    /// <inheritdoc/>
    public ValueTask DisposeAsync() => ValueTask.CompletedTask;
}
