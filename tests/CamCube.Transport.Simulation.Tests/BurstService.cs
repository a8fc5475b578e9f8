using CamCube.Packets;
using CamCube.Services;

namespace CamCube.Transport.Simulation.Tests;

/// <summary>Routes a burst of packets to a key at once, so they queue behind a link, and counts those delivered here.</summary>
internal sealed class BurstService() : ServiceBase(0x0B57, "burst")
{
    public int Delivered { get; private set; }

    public void Send(int count, Key key)
    {
        for (var i = 0; i < count; i++)
        {
            var packet = Node.CreatePacket();
            packet.PayloadLength = 1_000;
            Node.RouteToKey(packet, key);
        }
    }

    public override bool OnDeliver(Packet packet)
    {
        Delivered++;
        return false;
    }
}
