namespace CamCube.Cli;

/// <summary>
/// A command that was given correctly but cannot do its work (no cube runs, a state directory is
/// unsafe, a file cannot be written): <see cref="CliApp"/> prints the message as one line, without
/// the usage, and exits with <see cref="CliApp.ExitFailure"/>.
/// </summary>
internal sealed class CommandFailedException(string message) : Exception(message);
