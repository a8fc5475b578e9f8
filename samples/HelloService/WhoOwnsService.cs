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
            return false;
        }

        // At the root: turn the question into the answer and send it back to the asker.
        var asker = packet.Source;
        packet.Payload[0] = Answer;
        Node.RouteToServer(packet, asker);
        return true;
    }
}
