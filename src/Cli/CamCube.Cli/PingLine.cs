using System.Text.Json.Serialization;
using CamCube.Hosting.Control;

namespace CamCube.Cli;

/// <summary>What `camcube ping --json` prints: coordinates as [x,y,z], hops and round trips (null when every ping was lost).</summary>
internal sealed record PingLine : ControlResponse
{
    public required int[] From { get; init; }

    public required int[] To { get; init; }

    [JsonIgnore(Condition = JsonIgnoreCondition.Never)]
    public int? Hops { get; init; }

    [JsonIgnore(Condition = JsonIgnoreCondition.Never)]
    public RoundTripTimes? RttMicroseconds { get; init; }

    public int Lost { get; init; }
}
