using CamCube.Services.Cache;
using CamCube.Services.KeyValue.FrontEnd;
using CamCube.Services.KeyValue.Storage;

namespace CamCube.Cli.Nodes;

/// <summary>
/// The node's key-value store as the cache's value source (camcubeos 5.2, memId = objId): the value
/// this server's replica holds for a key, as the store's memcached front-end wrote it (flags and
/// data), served with its version as the cas unique. The local replica is up to date for every
/// acknowledged write, except while this server catches up after a restart.
/// </summary>
internal sealed class StoreCacheValueSource(IKeyValueStorage storage, TimeProvider time) : ICacheValueSource
{
    /// <inheritdoc/>
    public bool TryRead(Key memId, out ReadOnlyMemory<byte> value, out uint flags, out ulong version)
    {
        (value, flags, version) = (default, 0, 0);
        if (storage.Read(memId) is not { IsDeleted: false, Value: { } stored } held || !KeyValueFrontEnd.TryReadItem(stored, time.GetUtcNow(), out value, out flags))
        {
            return false;
        }

        version = (ulong)held.Version;
        return true;
    }
}
