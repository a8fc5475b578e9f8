using CamCube.Packets;
using CamCube.Transport;
using CamCube.Transport.Udp;

namespace CamCube.Benchmarks.Udp;

/// <summary>
/// The sending node's side of <see cref="UdpTransportBenchmarks"/>, on its loop: a posted work item
/// asks for a burst of full-size frames on the +x link, and the link's room reports let the rest
/// of a burst go when the link was full. Allocates nothing once the pool is warm.
/// </summary>
internal sealed class UdpBurstSender(PacketPool pool) : ILoopWork, ITransportSink
{
    private int _owed;

    /// <summary>Gets or sets the transport the frames go to (set before its start).</summary>
    public UdpLinkTransport? Transport { get; set; }

    /// <summary>Adds <paramref name="code"/> frames to the burst and sends what the link takes (on the loop).</summary>
    public void Execute(int code, int argument, Packet? packet)
    {
        _owed += code;
        Pump();
    }

    public void OnFrameReceived(LinkDirection link, Packet frame) => frame.Release();

    public void OnLinkRoom(LinkDirection link) => Pump();

    public void OnLinkStatus(LinkDirection link, bool up)
    {
    }

    private void Pump()
    {
        while (_owed > 0)
        {
            var frame = pool.Rent();
            frame.Length = frame.Capacity;
            if (!Transport!.TrySend(LinkDirection.PlusX, frame))
            {
                frame.Release();
                return;
            }

            _owed--;
        }
    }
}
