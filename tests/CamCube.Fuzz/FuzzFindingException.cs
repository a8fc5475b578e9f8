namespace CamCube.Fuzz;

/// <summary>What a target's own checks found: a hang, an allocation past the budget, a service that threw inside a node, a reply that breaks the protocol.</summary>
public sealed class FuzzFindingException : Exception
{
    /// <summary>Creates a finding described by <paramref name="message"/>.</summary>
    public FuzzFindingException(string message)
        : base(message)
    {
    }

    /// <summary>Creates a finding described by <paramref name="message"/>, caused by <paramref name="innerException"/>.</summary>
    public FuzzFindingException(string message, Exception innerException)
        : base(message, innerException)
    {
    }

    /// <summary>Creates a finding without a description.</summary>
    public FuzzFindingException()
    {
    }
}
