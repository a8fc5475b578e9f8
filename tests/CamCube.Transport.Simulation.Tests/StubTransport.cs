using CamCube.Packets;

namespace CamCube.Transport.Simulation.Tests;

/// <summary>An inner transport for decorator tests: the test pushes frames up and sees what was sent.</summary>
internal sealed class StubTransport(TorusShape shape, Coordinate self) : ILinkTransport
{
    public TorusShape Shape { get; } = shape;

    public Coordinate Self { get; } = self;

    public ITransportSink? Sink { get; private set; }

    public List<(LinkDirection Link, Packet Frame)> Sent { get; } = [];

    public bool Room { get; set; } = true;

    public bool Stopped { get; private set; }

    public void Start(ITransportSink sink) => Sink = sink;

    public void Stop() => Stopped = true;

    public bool HasRoom(LinkDirection link) => Room;

    public bool TrySend(LinkDirection link, Packet frame)
    {
        if (!Room)
        {
            return false;
        }

        Sent.Add((link, frame));
        return true;
    }

    public void Receive(LinkDirection link, Packet frame) => Sink!.OnFrameReceived(link, frame);
}
