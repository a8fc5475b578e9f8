using ProtoBuf;

namespace CamCube.Services.KeyValue.Messages;

/// <summary>A get, put or delete, routed to the root of its key (the key's primary, camcubeos 5.2).</summary>
[ProtoContract]
public sealed class ClientRequest
{
    /// <summary>Gets or sets the key's 20 bytes.</summary>
    [ProtoMember(1)]
    public byte[] Key { get; set; } = [];

    /// <summary>Gets or sets what is asked.</summary>
    [ProtoMember(2)]
    public KeyValueOperation Operation { get; set; }

    /// <summary>Gets or sets what must hold for a put or delete to happen.</summary>
    [ProtoMember(3)]
    public WriteConditionKind Condition { get; set; }

    /// <summary>Gets or sets the version the key must hold, for <see cref="WriteConditionKind.IfVersion"/>.</summary>
    [ProtoMember(4)]
    public long ConditionVersion { get; set; }

    /// <summary>Gets or sets the value of a put.</summary>
    [ProtoMember(5)]
    public byte[] Value { get; set; } = [];

    /// <summary>Gets or sets whether the asking server, writing, dropped any front-end lease on the key and keeps none while its writes of the key run (nor, for one lease after, one on an older version): the primary need not ask it to, and answers a write that succeeded with a lease on the version written.</summary>
    [ProtoMember(6)]
    public bool LeaseDropped { get; set; }

    /// <summary>
    /// Gets or sets the write's id, drawn by the front-end (0 for a read): a front-end that lost the
    /// answer (the primary became unreachable) asks again under the same id, and a primary that
    /// knows the write took effect (it or a replica kept it) answers with its version instead of
    /// writing again.
    /// </summary>
    [ProtoMember(7, DataFormat = DataFormat.FixedSize)]
    public ulong WriteId { get; set; }

    /// <summary>
    /// Gets or sets whether this is the first time the front-end asks for this write (no server can
    /// have run it before): only then may a primary that has never seen the key write it in the
    /// round that takes the key over. False when unknown.
    /// </summary>
    [ProtoMember(8)]
    public bool FirstAttempt { get; set; }
}
