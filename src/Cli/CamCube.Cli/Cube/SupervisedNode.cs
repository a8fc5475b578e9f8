namespace CamCube.Cli.Cube;

/// <summary>One node in the supervisor's status.</summary>
/// <param name="Coord">Its coordinate, <c>x,y,z</c>.</param>
/// <param name="Running">Whether it runs.</param>
/// <param name="Pid">Its process id, or null (not running, or in the supervisor's process).</param>
/// <param name="ControlSocket">Its control socket.</param>
internal sealed record SupervisedNode(string Coord, bool Running, int? Pid, string ControlSocket);
