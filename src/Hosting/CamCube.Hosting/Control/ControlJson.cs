using System.Text.Json;
using System.Text.Json.Serialization.Metadata;

namespace CamCube.Hosting.Control;

/// <summary>Writes and reads the one-line JSON answers of control sockets through generated serializers.</summary>
public static class ControlJson
{
    /// <summary>Writes <paramref name="value"/> as one line of JSON (no newline).</summary>
    /// <typeparam name="T">The answer's record.</typeparam>
    /// <param name="value">The answer.</param>
    /// <param name="typeInfo">Its generated serializer, such as <c>ControlJsonContext.Default.NodeStatus</c>.</param>
    /// <returns>The JSON text.</returns>
    public static string Write<T>(T value, JsonTypeInfo<T> typeInfo)
        where T : ControlResponse => JsonSerializer.Serialize(value, typeInfo);

    /// <summary>Writes an error answer: <c>{"error":"..."}</c>.</summary>
    /// <param name="message">Why the request failed.</param>
    /// <returns>The JSON text.</returns>
    public static string Error(string message) => Write(new ControlResponse { Error = message }, ControlJsonContext.Default.ControlResponse);

    /// <summary>Reads one answer.</summary>
    /// <typeparam name="T">The record the request answers with.</typeparam>
    /// <param name="json">The answer's line.</param>
    /// <param name="typeInfo">Its generated serializer.</param>
    /// <returns>The answer; its <see cref="ControlResponse.Error"/> is set when the request failed.</returns>
    /// <exception cref="JsonException">The line is not such an answer.</exception>
    public static T Read<T>(ReadOnlySpan<byte> json, JsonTypeInfo<T> typeInfo)
        where T : ControlResponse => JsonSerializer.Deserialize(json, typeInfo) ?? throw new JsonException("the answer is null");
}
