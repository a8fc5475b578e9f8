using CamCube.Packets;
using CamCube.Services;

namespace CamCube.Runtime.Tests;

/// <summary>A service that sends one payload to several servers with <see cref="INodeContext.Transmit"/> and counts what arrives; allocates nothing itself.</summary>
internal sealed class FanOutService() : ServiceBase(0x0702, "fan-out")
{
    /// <summary>Gets the payloads delivered here.</summary>
    public long Delivered { get; private set; }

    /// <summary>Sends one payload of <paramref name="length"/> bytes to every server of <paramref name="servers"/>; returns how many headers were queued.</summary>
    public int Send(ReadOnlySpan<Coordinate> servers, int length)
    {
        var packet = Node.CreatePacket();
        packet.PayloadArea[..length].Fill(0x5A);
        packet.PayloadLength = length;
        var sent = Node.Transmit(packet, servers, default);
        packet.Release();
        return sent;
    }

    /// <inheritdoc/>
    public override bool OnDeliver(Packet packet)
    {
        Delivered++;
        return false;
    }
}
