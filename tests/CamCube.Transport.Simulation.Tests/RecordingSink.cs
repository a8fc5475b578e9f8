using CamCube.Packets;

namespace CamCube.Transport.Simulation.Tests;

/// <summary>A sink that records every event with its virtual time and keeps or releases frames.</summary>
internal sealed class RecordingSink(SimulationEngine engine) : ITransportSink
{
    public List<(long Nanoseconds, LinkDirection Link, Packet Frame)> Frames { get; } = [];

    public List<(long Nanoseconds, LinkDirection Link)> Rooms { get; } = [];

    public List<(long Nanoseconds, LinkDirection Link, bool Up)> Statuses { get; } = [];

    /// <summary>Gets or sets what to do with a received frame; by default it is kept in <see cref="Frames"/>.</summary>
    public Action<LinkDirection, Packet>? OnFrame { get; set; }

    public void OnFrameReceived(LinkDirection link, Packet frame)
    {
        Frames.Add((engine.ElapsedNanoseconds, link, frame));
        OnFrame?.Invoke(link, frame);
    }

    /// <summary>Gets or sets what to do when a link has room, after recording it.</summary>
    public Action<LinkDirection>? OnLinkRoomAction { get; set; }

    public void OnLinkRoom(LinkDirection link)
    {
        Rooms.Add((engine.ElapsedNanoseconds, link));
        OnLinkRoomAction?.Invoke(link);
    }

    public void OnLinkStatus(LinkDirection link, bool up) => Statuses.Add((engine.ElapsedNanoseconds, link, up));
}
