namespace CamCube.Hosting.Control;

/// <summary>The answer to <c>ping &lt;x,y,z&gt; [count] [timeoutMs]</c>: hops and round-trip times through the runtime.</summary>
public sealed record PingResult : ControlResponse
{
    /// <summary>Gets the pinging node, <c>x,y,z</c>.</summary>
    public string From { get; init; } = "";

    /// <summary>Gets the pinged node, <c>x,y,z</c>.</summary>
    public string To { get; init; } = "";

    /// <summary>Gets the hops of the first answered ping's way out, or null when none was answered.</summary>
    public int? Hops { get; init; }

    /// <summary>Gets the hops of the first answered ping's way back, or null when none was answered.</summary>
    public int? ReturnHops { get; init; }

    /// <summary>Gets the round-trip times of the answered pings, or null when none was answered.</summary>
    public RoundTripTimes? RttMicroseconds { get; init; }

    /// <summary>Gets the pings sent.</summary>
    public int Sent { get; init; }

    /// <summary>Gets the pings not answered in time.</summary>
    public int Lost { get; init; }
}
