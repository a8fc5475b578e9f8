namespace CamCube.Testing.Linearizability;

/// <summary>What the checker concluded about a history.</summary>
public enum LinearizabilityVerdict
{
    /// <summary>An order consistent with real time explains every answer.</summary>
    Linearizable,

    /// <summary>No such order exists: some answer is impossible.</summary>
    NotLinearizable,

    /// <summary>The search reached its step limit first; nothing is proved either way.</summary>
    Inconclusive,
}
