using System.Globalization;
using System.Text;
using CamCube.Hosting;
using CamCube.Services.KeyValue;
using CamCube.Transport;

namespace CamCube.Cli.Nodes;

/// <summary>
/// `kv-stats` on a node's control socket (`camcube cube ask x,y,z kv-stats` or any control client):
/// the node's <see cref="KeyValueStatistics"/> as one line of <c>name=value</c> pairs, every counter
/// in declaration order, so an operator sees what the store on that server did (writes, accepts,
/// reads under lease and the rounds that confirmed the others, take-overs, catch-up), then what the
/// reliable transport under it did (packets sent again, duplicate packets dropped, requests received
/// again).
/// </summary>
internal static class KeyValueStatsCommand
{
    /// <summary>The command's name on the control socket.</summary>
    public const string Name = "kv-stats";

    /// <summary>Reads the counters on the node's loop, where the store changes them.</summary>
    /// <exception cref="FormatException">Arguments were given.</exception>
    /// <exception cref="InvalidOperationException">The node runs no key-value store.</exception>
    public static async Task<string> AnswerAsync(CamCubeNode node, IReadOnlyList<string> arguments, CancellationToken cancellationToken)
    {
        if (arguments.Count != 0)
        {
            throw new FormatException($"{Name} takes no arguments");
        }

        var store = node.GetService<KeyValueService>() ?? throw new InvalidOperationException("this node runs no key-value store");
        return await node.Loop.InvokeAsync(() => Format(store)).WaitAsync(cancellationToken).ConfigureAwait(false);
    }

    /// <summary>Every counter of <paramref name="store"/>'s statistics, then its transport's, as <c>Name=value</c>, space-separated.</summary>
    internal static string Format(KeyValueService store)
    {
        var statistics = store.Statistics;
        var line = new StringBuilder();
        foreach (var property in typeof(KeyValueStatistics).GetProperties())
        {
            if (property.PropertyType == typeof(long))
            {
                line.Append(line.Length == 0 ? "" : " ").Append(property.Name).Append('=')
                    .Append(((long)property.GetValue(statistics)!).ToString(CultureInfo.InvariantCulture));
            }
        }

        line.Append(CultureInfo.InvariantCulture, $" ReliablePacketsSentAgain={store.ReliablePacketsSentAgain} ReliableDuplicatePackets={store.ReliableDuplicatePackets} ReliableDuplicateRequests={store.ReliableDuplicateRequests} ReliableMeanLearnedTimeoutUs={(long)store.ReliableMeanLearnedTimeout.TotalMicroseconds}");
        return line.ToString();
    }
}
