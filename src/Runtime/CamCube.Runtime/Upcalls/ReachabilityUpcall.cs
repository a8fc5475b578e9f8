using CamCube.Services;

namespace CamCube.Runtime.Upcalls;

/// <summary><see cref="IService.OnServerReachabilityChanged"/>: a server failed or came back.</summary>
internal readonly struct ReachabilityUpcall(Coordinate server, bool reachable) : IUpcall<bool>
{
    public string Name => nameof(IService.OnServerReachabilityChanged);

    public bool Invoke(ServiceSlot slot)
    {
        slot.Service.OnServerReachabilityChanged(server, reachable);
        return true;
    }
}
