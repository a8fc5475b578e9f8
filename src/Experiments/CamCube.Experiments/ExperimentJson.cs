using System.Text.Json;

namespace CamCube.Experiments;

/// <summary>Writes experiment results as JSON for plots: camelCase names, indented.</summary>
public static class ExperimentJson
{
    private static readonly JsonSerializerOptions s_options = new(JsonSerializerDefaults.Web) { WriteIndented = true };

    /// <summary>Serializes <paramref name="result"/> (an <see cref="AllToAllResult"/>, <see cref="FailuresResult"/> or <see cref="ChurnResult"/>).</summary>
    public static string Serialize<T>(T result) => JsonSerializer.Serialize(result, s_options);
}
