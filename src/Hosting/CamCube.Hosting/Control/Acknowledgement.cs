namespace CamCube.Hosting.Control;

/// <summary>The answer to a request that has nothing to report but that it was done (<c>stop</c>, a supervisor's <c>down</c>).</summary>
public sealed record Acknowledgement : ControlResponse
{
    /// <summary>Gets whether the request was done.</summary>
    public bool Ok { get; init; }
}
