namespace CamCube.Cli;

/// <summary>A command line that cannot be run as given; the message says what was wrong.</summary>
internal sealed class UsageException(string message) : Exception(message);
