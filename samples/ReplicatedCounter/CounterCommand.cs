using System.Globalization;
using CamCube.Hosting;
using CamCube.Messaging;

namespace ReplicatedCounter;

/// <summary>`counter increment &lt;name&gt; [by]` and `counter read &lt;name&gt;` on a node's control socket: the node asks the name's root over the cube.</summary>
public static class CounterCommand
{
    /// <summary>Increments or reads a counter through <paramref name="node"/> and answers <c>name=value</c>, or why the request failed.</summary>
    /// <exception cref="FormatException">The arguments are neither form.</exception>
    public static async Task<string> AnswerAsync(CamCubeNode node, IReadOnlyList<string> arguments, CancellationToken cancellationToken)
    {
        var counter = node.GetService<CounterService>()!;
        try
        {
            var value = arguments switch
            {
                ["increment", var name] => await counter.IncrementAsync(name),
                ["increment", var name, var by] when long.TryParse(by, CultureInfo.InvariantCulture, out var amount) => await counter.IncrementAsync(name, amount),
                ["read", var name] => await counter.ReadAsync(name),
                _ => throw new FormatException("counter increment <name> [by] | counter read <name>"),
            };
            return string.Create(CultureInfo.InvariantCulture, $"{value.Name}={value.Value}");
        }
        catch (RequestFailedException ex)
        {
            return $"failed ({ex.Reason}): {ex.Message}";
        }
    }
}
