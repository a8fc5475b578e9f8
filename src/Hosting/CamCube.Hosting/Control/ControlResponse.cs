namespace CamCube.Hosting.Control;

/// <summary>
/// The base of every answer on a control socket (one JSON object per line): a request that failed
/// is answered with <see cref="Error"/> alone, one that ran with the fields of its own record.
/// </summary>
public record ControlResponse
{
    /// <summary>Gets why the request failed, or null when it ran.</summary>
    public string? Error { get; init; }
}
