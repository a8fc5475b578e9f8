namespace CamCube.Services.KeyValue.Replication;

/// <summary>How a round of the primary with the key's other replicas ended.</summary>
internal enum RoundResult
{
    /// <summary>Every replica kept the write (or confirmed the ballot).</summary>
    Kept,

    /// <summary>Every replica answered and none kept it: a newer ballot fenced this primary, and the write happened nowhere.</summary>
    Refused,

    /// <summary>Some replica kept it and another did not, or did not answer: the write may or may not take effect.</summary>
    Unknown,
}
