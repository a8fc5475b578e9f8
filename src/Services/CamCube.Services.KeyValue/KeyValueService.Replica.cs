using CamCube.Services.KeyValue.Messages;
using CamCube.Services.KeyValue.Storage;

namespace CamCube.Services.KeyValue;

/// <summary>
/// A replica of a key: it promises a new primary's ballot and refuses every lower one from then on
/// (the fence: a deposed primary can no longer have a write or a read acknowledged), and keeps the
/// writes of the primary it promised.
/// </summary>
public sealed partial class KeyValueService
{
    /// <summary>The highest ballot this server promised per key (in memory: a restarted server promised nothing).</summary>
    private readonly Dictionary<Key, long> _promised = [];

    private long PromisedBallot(Key key) => _promised.GetValueOrDefault(key);

    internal Promise OnPrepare(Prepare prepare)
    {
        var key = Key.FromBytes(prepare.Key);
        var promised = PromisedBallot(key);
        if (prepare.Ballot <= promised)
        {
            return new Promise { Ballot = promised };
        }

        _promised[key] = prepare.Ballot;
        var held = _storage.Read(key);
        var promise = new Promise { Promised = true, Ballot = prepare.Ballot, Version = held?.Version ?? 0 };
        if (held is not null && held.Version > prepare.Version)
        {
            promise.HasValue = true;
            promise.Deleted = held.IsDeleted;
            promise.Value = held.Value ?? [];
        }

        return promise;
    }

    internal Accepted OnAccept(Accept accept)
    {
        var key = Key.FromBytes(accept.Key);
        var promised = PromisedBallot(key);
        if (accept.Ballot < promised)
        {
            return new Accepted { Ballot = promised };
        }

        _promised[key] = accept.Ballot;
        if (!accept.CheckOnly)
        {
            _storage.Apply(key, new StoredValue(accept.Version, accept.Deleted ? null : accept.Value));
            Watch(key);
        }

        return new Accepted { Ok = true, Ballot = accept.Ballot };
    }
}
