namespace CamCube.Hosting.Control;

/// <summary>The answer to <c>pingall [timeoutMs]</c>: which servers answered a ping.</summary>
public sealed record PingAllResult : ControlResponse
{
    /// <summary>Gets the number of servers that answered.</summary>
    public int Reached { get; init; }

    /// <summary>Gets the servers that did not answer, <c>x,y,z</c> each.</summary>
    public IReadOnlyList<string> Lost { get; init; } = [];
}
