using CamCube.Services;

namespace CamCube.Runtime.Upcalls;

/// <summary><see cref="IService.OnLinkChanged"/>: a link of the node went down or came up.</summary>
internal readonly struct LinkChangedUpcall(LinkDirection link, bool up) : IUpcall<bool>
{
    public string Name => nameof(IService.OnLinkChanged);

    public bool Invoke(ServiceSlot slot)
    {
        slot.Service.OnLinkChanged(link, up);
        return true;
    }
}
