namespace CamCube.Hosting.Control;

/// <summary>The answer to a command a node program added (<see cref="ControlCommandHandler"/>).</summary>
public sealed record CommandResult : ControlResponse
{
    /// <summary>Gets the command's name.</summary>
    public string Command { get; init; } = "";

    /// <summary>Gets what the command answered.</summary>
    public string Result { get; init; } = "";
}
