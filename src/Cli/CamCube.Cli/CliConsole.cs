namespace CamCube.Cli;

/// <summary>The standard streams a command uses, so tests can run commands in process.</summary>
/// <param name="In">Standard input.</param>
/// <param name="Out">Standard output.</param>
/// <param name="Error">Standard error.</param>
internal sealed record CliConsole(TextReader In, TextWriter Out, TextWriter Error);
