namespace CamCube.Services.KeyValue.Replication;

/// <summary>How a round of the primary with the key's other replicas ended.</summary>
internal enum RoundResult
{
    /// <summary>Every replica kept the write (or confirmed the ballot).</summary>
    Kept,

    /// <summary>Every other replica answered and none kept it: a newer ballot fenced this primary; the write is at most on the primary's own disk, which it settles by taking the key back.</summary>
    Refused,

    /// <summary>Some replica kept it and another did not, or did not answer: the write may or may not take effect.</summary>
    Unknown,
}
