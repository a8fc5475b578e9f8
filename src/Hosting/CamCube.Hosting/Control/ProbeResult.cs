namespace CamCube.Hosting.Control;

/// <summary>The answer to <c>probe &lt;key&gt; [timeoutMs]</c>: which live server is a key's root now.</summary>
public sealed record ProbeResult : ControlResponse
{
    /// <summary>Gets the key as asked.</summary>
    public string Key { get; init; } = "";

    /// <summary>Gets the key's coordinate in key space.</summary>
    public string KeyCoordinate { get; init; } = "";

    /// <summary>Gets the root that answered, <c>x,y,z</c>, or null when none answered in time.</summary>
    public string? Root { get; init; }
}
