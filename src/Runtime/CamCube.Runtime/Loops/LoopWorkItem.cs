using CamCube.Packets;
using CamCube.Transport;

namespace CamCube.Runtime.Loops;

/// <summary>One queued call of <see cref="ILoopWork.Execute"/>.</summary>
internal readonly record struct LoopWorkItem(ILoopWork Target, int Code, int Argument, Packet? Packet)
{
    public void Run() => Target.Execute(Code, Argument, Packet);
}
