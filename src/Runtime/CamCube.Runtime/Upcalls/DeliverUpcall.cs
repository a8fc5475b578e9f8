using CamCube.Packets;
using CamCube.Services;

namespace CamCube.Runtime.Upcalls;

/// <summary><see cref="IService.OnDeliver"/>: a routed packet reached its destination here.</summary>
internal readonly struct DeliverUpcall(Packet packet) : IUpcall<bool>
{
    public string Name => nameof(IService.OnDeliver);

    public bool Invoke(ServiceSlot slot) => slot.Base is { } service ? service.OnDeliver(packet) : slot.Service.OnDeliver(packet);
}
