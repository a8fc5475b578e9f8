using System.Text;
using CamCube;
using CamCube.Packets;
using CamCube.Services;

namespace HelloService;

/// <summary>Asks which server owns a key: the question routes to the key's root, which answers the asker.</summary>
public sealed class WhoOwnsService() : ServiceBase(0x0042, "who-owns")
{
    private const byte Question = 1;
    private const byte Answer = 2;

    /// <summary>Gets the answers received here: the key asked about and the server that owns it.</summary>
    public List<(string Key, Coordinate Owner)> Answers { get; } = [];

    private readonly Dictionary<string, TaskCompletionSource<Coordinate>> _waiting = [];

    /// <summary>Asks who owns <paramref name="key"/>; the task completes (off the loop) with the root's answer. Call it on the node's loop.</summary>
    public Task<Coordinate> AskAsync(string key)
    {
        if (!_waiting.TryGetValue(key, out var waiting))
        {
            waiting = new TaskCompletionSource<Coordinate>(TaskCreationOptions.RunContinuationsAsynchronously);
            _waiting[key] = waiting;
            Ask(key);
        }

        return waiting.Task;
    }

    /// <summary>Routes a question about <paramref name="key"/> to whichever live server is its root.</summary>
    public void Ask(string key)
    {
        var packet = Node.CreatePacket();
        packet.PayloadArea[0] = Question;
        packet.PayloadLength = 1 + Encoding.UTF8.GetBytes(key, packet.PayloadArea[1..]);
        Node.RouteToKey(packet, Key.FromString(key));
    }

    /// <inheritdoc/>
    public override bool OnDeliver(Packet packet)
    {
        var key = Encoding.UTF8.GetString(packet.Payload[1..]);
        if (packet.Payload[0] == Answer)
        {
            Answers.Add((key, packet.Source));
            if (_waiting.Remove(key, out var waiting))
            {
                waiting.SetResult(packet.Source);
            }

            return false;
        }

        // At the root: turn the question into the answer and send it back to the asker.
        var asker = packet.Source;
        packet.Payload[0] = Answer;
        Node.RouteToServer(packet, asker);
        return true;
    }
}
