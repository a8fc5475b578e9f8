using CamCube.Services.KeyValue.Messages;

namespace CamCube.Services.KeyValue;

/// <summary>
/// One unconditional put at a time, of a caller that keeps it and writes with it again and again:
/// posted to the node's loop with no closure and no task, asked of the key's primary as every write
/// is (<see cref="KeyValueService"/>'s calls: one attempt, asked again under its write id only when
/// it is known not to have been taken), and the outcome that hears how it ended.
/// </summary>
internal sealed class StoreSet
{
    /// <summary>Creates a set whose answers go to <paramref name="outcome"/>.</summary>
    public StoreSet(ISetOutcome outcome) => Outcome = outcome;

    /// <summary>Gets what hears how each set ended.</summary>
    public ISetOutcome Outcome { get; }

    /// <summary>Gets the request of the set prepared last: a new one per set, since the store may keep it while the write settles.</summary>
    public ClientRequest Request { get; private set; } = new();

    /// <summary>Gets or sets the store that runs it, set when the set starts.</summary>
    internal KeyValueService? Store { get; set; }

    /// <summary>Prepares the next set: <paramref name="value"/> (kept, not copied) under <paramref name="key"/>, whatever the key holds.</summary>
    public void Prepare(Key key, byte[] value) =>
        Request = new ClientRequest { Key = KeyValueService.KeyBytes(key), Operation = KeyValueOperation.Put, Value = value, Condition = WriteConditionKind.Always };
}
