namespace CamCube.Cli;

/// <summary>What <c>camcube kv get --json</c> prints: the key, its version (the cas unique), its flags and its value.</summary>
internal sealed record KeyValueLine(string Key, ulong Version, uint Flags, string Value);
