using CamCube.Packets;
using CamCube.Services;

namespace CamCube.Runtime.Upcalls;

/// <summary><see cref="IService.OnForward"/>: a routed packet is passing through.</summary>
internal readonly struct ForwardUpcall(Packet packet) : IUpcall<ForwardDecision>
{
    public string Name => nameof(IService.OnForward);

    public ForwardDecision Invoke(ServiceSlot slot) => slot.Base is { } service ? service.OnForward(packet) : slot.Service.OnForward(packet);
}
