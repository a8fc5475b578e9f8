using CamCube.Packets;
using CamCube.Services;

namespace CamCube.Runtime.Upcalls;

/// <summary><see cref="IService.Poll"/>: a link has room (or the service's router, when the node polls it directly).</summary>
internal readonly struct PollUpcall(LinkDirection link) : IUpcall<Packet?>
{
    public string Name => nameof(IService.Poll);

    public Packet? Invoke(ServiceSlot slot) =>
        slot.PolledRouter is { } router ? router.Poll(link)
        : slot.Base is { } service ? service.Poll(link)
        : slot.Service.Poll(link);
}
