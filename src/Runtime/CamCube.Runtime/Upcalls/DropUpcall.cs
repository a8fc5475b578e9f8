using CamCube.Packets;
using CamCube.Services;

namespace CamCube.Runtime.Upcalls;

/// <summary><see cref="IDropObserver.OnDropped"/>: a packet the service sent was dropped; <paramref name="notice"/> says which.</summary>
internal readonly struct DropUpcall(Packet notice) : IUpcall<bool>
{
    public string Name => nameof(IDropObserver.OnDropped);

    public bool Invoke(ServiceSlot slot)
    {
        DropNoticeService.TryRead(notice, out _, out var drop);
        slot.DropObserver!.OnDropped(drop);
        return true;
    }
}
