using System.Globalization;
using CamCube.Hosting;
using CamCube.Transport;

namespace HelloService;

/// <summary>`who-owns &lt;key&gt;` on a node's control socket: the node asks the key's root, over the cube, and answers with the root's coordinate.</summary>
public static class WhoOwnsCommand
{
    /// <summary>How long the node waits for the root's answer.</summary>
    public static readonly TimeSpan AnswerTimeout = TimeSpan.FromSeconds(5);

    /// <summary>Asks the root of the key in <paramref name="arguments"/> and returns its coordinate, <c>x,y,z</c>.</summary>
    /// <param name="node">The node asked.</param>
    /// <param name="arguments">One key.</param>
    /// <param name="cancellationToken">Cancelled when the asker hangs up.</param>
    /// <returns>The owner's coordinate.</returns>
    /// <exception cref="FormatException">Not one key.</exception>
    /// <exception cref="TimeoutException">No answer within <see cref="AnswerTimeout"/>.</exception>
    public static async Task<string> AnswerAsync(CamCubeNode node, IReadOnlyList<string> arguments, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(node);
        ArgumentNullException.ThrowIfNull(arguments);
        if (arguments.Count != 1)
        {
            throw new FormatException("who-owns takes one key");
        }

        var service = node.GetService<WhoOwnsService>()!;
        var answer = await node.Loop.InvokeAsync(() => service.AskAsync(arguments[0])).ConfigureAwait(false);
        var owner = await answer.WaitAsync(AnswerTimeout, TimeProvider.System, cancellationToken).ConfigureAwait(false);
        return string.Create(CultureInfo.InvariantCulture, $"{owner.X},{owner.Y},{owner.Z}");
    }
}
