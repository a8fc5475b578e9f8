using CamCube.Hosting.Control;

namespace CamCube.Cli.Cube;

/// <summary>What `cube status --json` prints for a node that does not answer.</summary>
/// <param name="Self">Its coordinate, <c>x,y,z</c>.</param>
/// <param name="Running">Always false.</param>
internal sealed record NodeDown(string Self, bool Running) : ControlResponse;
