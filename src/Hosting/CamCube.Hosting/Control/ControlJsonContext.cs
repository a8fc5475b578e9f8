using System.Text.Json.Serialization;

namespace CamCube.Hosting.Control;

/// <summary>The JSON of every answer on a node's control socket, generated at build time (camelCase names, null fields left out).</summary>
[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase, DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull)]
[JsonSerializable(typeof(ControlResponse))]
[JsonSerializable(typeof(NodeStatus))]
[JsonSerializable(typeof(PingResult))]
[JsonSerializable(typeof(PingAllResult))]
[JsonSerializable(typeof(ProbeResult))]
[JsonSerializable(typeof(FaultsResult))]
[JsonSerializable(typeof(LinkChangeResult))]
[JsonSerializable(typeof(Acknowledgement))]
[JsonSerializable(typeof(HealthResult))]
[JsonSerializable(typeof(CommandResult))]
public sealed partial class ControlJsonContext : JsonSerializerContext
{
}
