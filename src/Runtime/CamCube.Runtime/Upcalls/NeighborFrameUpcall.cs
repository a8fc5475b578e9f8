using CamCube.Packets;
using CamCube.Services;

namespace CamCube.Runtime.Upcalls;

/// <summary><see cref="IService.OnNeighborFrame"/>: a one-hop frame arrived on a link.</summary>
internal readonly struct NeighborFrameUpcall(Packet packet, LinkDirection link) : IUpcall<bool>
{
    public string Name => nameof(IService.OnNeighborFrame);

    public bool Invoke(ServiceSlot slot) => slot.Service.OnNeighborFrame(packet, link);
}
