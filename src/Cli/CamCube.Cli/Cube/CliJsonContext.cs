using System.Text.Json.Serialization;

namespace CamCube.Cli.Cube;

/// <summary>The JSON of the supervisor's control socket and of the CLI's --json output, generated at build time.</summary>
[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase, DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull)]
[JsonSerializable(typeof(SupervisorStatus))]
[JsonSerializable(typeof(NodeChange))]
[JsonSerializable(typeof(NodeDown))]
[JsonSerializable(typeof(PingLine))]
[JsonSerializable(typeof(KeyValueLine))]
internal sealed partial class CliJsonContext : JsonSerializerContext
{
}
