using System.Text.Json.Serialization;

namespace CamCube.Hosting.Control;

/// <summary>Frames the UDP transport refused, by reason.</summary>
/// <param name="UnknownSender">From an address that is no neighbour's.</param>
/// <param name="BadTag">Whose authentication tag did not match the cluster key.</param>
/// <param name="Replay">Seen before (a replay).</param>
/// <param name="Malformed">Too short or badly framed.</param>
public sealed record TransportDrops(long UnknownSender = 0, long BadTag = 0, long Replay = 0, long Malformed = 0)
{
    /// <summary>Gets every refused frame together.</summary>
    [JsonIgnore]
    public long Total => UnknownSender + BadTag + Replay + Malformed;
}
