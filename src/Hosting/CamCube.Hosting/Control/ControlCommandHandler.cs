namespace CamCube.Hosting.Control;

/// <summary>
/// A command a node program adds to its control socket (<see cref="CamCubeNodeBuilder.AddControlCommand"/>):
/// it runs off the node's loop (reach the services through <c>node.Loop.InvokeAsync</c>) and
/// answers with one line of text, sent back as <see cref="CommandResult"/>. A
/// <see cref="FormatException"/> it throws is answered as an error with its message.
/// </summary>
/// <param name="node">The node the command was sent to.</param>
/// <param name="arguments">The words of the request after the command's name.</param>
/// <param name="cancellationToken">Cancelled when the asker hangs up or the node stops.</param>
/// <returns>The result.</returns>
public delegate Task<string> ControlCommandHandler(CamCubeNode node, IReadOnlyList<string> arguments, CancellationToken cancellationToken);
