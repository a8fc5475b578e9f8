using CamCube.Packets;

namespace CamCube.Transport.Udp;

/// <summary>One queued call of <see cref="ILoopWork.Execute"/> on a <see cref="UdpEventLoop"/>.</summary>
internal readonly record struct UdpLoopWorkItem(ILoopWork Target, int Code, int Argument, Packet? Packet)
{
    public void Run() => Target.Execute(Code, Argument, Packet);
}
