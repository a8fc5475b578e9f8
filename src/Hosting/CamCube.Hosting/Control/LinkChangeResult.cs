namespace CamCube.Hosting.Control;

/// <summary>The answer to <c>cut &lt;link&gt;</c> or <c>restore &lt;link&gt;</c>.</summary>
public sealed record LinkChangeResult : ControlResponse
{
    /// <summary>Gets the link cut, or null.</summary>
    public string? Cut { get; init; }

    /// <summary>Gets the link restored, or null.</summary>
    public string? Restored { get; init; }
}
