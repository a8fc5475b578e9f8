using System.Buffers.Binary;
using CamCube.Testing.Linearizability;

namespace CamCube.Services.KeyValue.Tests.Simulation;

/// <summary>One client of the register workload: one operation at a time through its own node's store, each recorded with its virtual times.</summary>
/// <param name="id">The client's number, which its written values carry.</param>
/// <param name="store">Its node's store.</param>
/// <param name="keys">The keys the clients share.</param>
/// <param name="random">Where its choices come from.</param>
/// <param name="readShare">The share of operations that are gets; the rest are puts and compare-and-swaps, half each.</param>
internal sealed class RegisterClient(int id, KeyValueService store, Key[] keys, Random random, double readShare = 0.4)
{
    private readonly Dictionary<int, VersionedValue?> _lastRead = [];
    private int _written;
    private RegisterInput? _input;
    private long _invokedAt;
    private Task? _pending;

    public TimeSpan NextStart { get; set; }

    public bool IsIdle => _pending is null;

    public bool HasAnswer => _pending is { IsCompleted: true };

    /// <summary>Starts a random get, put or compare-and-swap (on the version this client read last, or an add).</summary>
    public void Start(long now)
    {
        var key = random.Next(keys.Length);
        var roll = random.NextDouble();
        if (roll < readShare)
        {
            StartRead(key, now);
            return;
        }

        _invokedAt = now;

        var value = (id * 1_000_000) + ++_written;
        if (roll < readShare + ((1 - readShare) * 0.5))
        {
            _input = new RegisterInput(RegisterOperation.Write, value, Key: key);
            _pending = store.PutAsync(keys[key], Encode(value), WriteCondition.Always);
            return;
        }

        var read = _lastRead.GetValueOrDefault(key);
        _input = new RegisterInput(RegisterOperation.CompareAndSwap, value, read is null ? null : Decode(read.Value), key);
        _pending = store.PutAsync(keys[key], Encode(value), read is null ? WriteCondition.IfAbsent : WriteCondition.IfVersion(read.Version));
    }

    /// <summary>Starts a get of the key at <paramref name="key"/> in the shared keys.</summary>
    public void StartRead(int key, long now)
    {
        _invokedAt = now;
        _input = new RegisterInput(RegisterOperation.Read, Key: key);
        _pending = store.GetAsync(keys[key]);
    }

    /// <summary>
    /// Records the finished operation: its answer, or an unknown outcome when a write failed. A failed
    /// read changed nothing and told nothing, so it is left out (null): an operation of unknown outcome
    /// multiplies the checker's search, and a history full of them ends inconclusive.
    /// </summary>
    public HistoryOperation<RegisterInput, RegisterOutput>? Finish(long now)
    {
        var task = _pending!;
        _pending = null;
        switch (task)
        {
            case Task<VersionedValue?> { IsCompletedSuccessfully: true } read:
                _lastRead[_input!.Key] = read.Result;
                return new(id, _input, new RegisterOutput(read.Result is null ? null : Decode(read.Result.Value), Swapped: false), _invokedAt, now);
            case Task<WriteOutcome> { IsCompletedSuccessfully: true } write:
                return new(id, _input!, new RegisterOutput(null, _input!.Kind == RegisterOperation.CompareAndSwap && write.Result.Succeeded, write.Result.Succeeded ? write.Result.Version : 0), _invokedAt, now);
            default:
                Assert.IsType<KeyValueStoreException>(task.Exception!.InnerException);
                return _input!.Kind == RegisterOperation.Read ? null : new(id, _input!, new RegisterOutput(null, false), _invokedAt, 0, Completed: false);
        }
    }

    /// <summary>Gives up on an operation still waiting (the run ended): its outcome is unknown (a read is left out).</summary>
    public HistoryOperation<RegisterInput, RegisterOutput>? Abandon()
    {
        if (_pending is null)
        {
            return null;
        }

        _pending = null;
        return _input!.Kind == RegisterOperation.Read ? null : new(id, _input!, new RegisterOutput(null, false), _invokedAt, 0, Completed: false);
    }

    private static int Decode(ReadOnlyMemory<byte> value) => BinaryPrimitives.ReadInt32LittleEndian(value.Span);

    private static byte[] Encode(int value)
    {
        var bytes = new byte[4];
        BinaryPrimitives.WriteInt32LittleEndian(bytes, value);
        return bytes;
    }
}
