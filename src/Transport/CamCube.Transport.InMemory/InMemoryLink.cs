using CamCube.Packets;

namespace CamCube.Transport.InMemory;

/// <summary>One direction of one cable: frames from a server out of one of its links.</summary>
internal sealed class InMemoryLink(InMemoryNetwork network, Coordinate from, LinkDirection direction) : ILoopWork
{
    private readonly Coordinate _to = network.Shape.Neighbor(from, direction);
    private readonly LinkDirection _arrivalLink = network.Shape.PeerLink(direction);

    /// <summary>Gets or sets the transport that owns the sending end now (null if none).</summary>
    public InMemoryLinkTransport? Sender { get; set; }

    public int InFlight { get; set; }

    public bool IsCut { get; set; }

    public void Carry(Packet frame)
    {
        InFlight++;
        network.Loop.Post(this, 0, 0, frame);
    }

    /// <summary>A frame reaches the far end: deliver it (or lose it), then the sending end has room again.</summary>
    public void Execute(int code, int argument, Packet? packet)
    {
        InFlight--;
        var receiver = IsCut ? null : network.LiveTransportAt(_to);
        if (receiver is not null && packet is not null)
        {
            network.FramesDelivered++;
            receiver.Receive(_arrivalLink, packet);
        }
        else if (packet is not null)
        {
            network.FramesLost++;
            packet.Release();
        }

        Sender?.ReportRoom(direction);
    }
}
