using System.Runtime.InteropServices;
using CamCube.Runtime.Ownership;
using CamCube.Services;

namespace CamCube.Runtime.Upcalls;

/// <summary><see cref="IOwnershipObserver.OnOwnershipChanged"/>: watched key coordinates have another root or replica set.</summary>
internal readonly struct OwnershipUpcall(KeyWatch watch, List<KeyCoordinate> changed) : IUpcall<bool>
{
    public string Name => nameof(IOwnershipObserver.OnOwnershipChanged);

    public bool Invoke(ServiceSlot slot)
    {
        ((IOwnershipObserver)slot.Service).OnOwnershipChanged(watch, CollectionsMarshal.AsSpan(changed));
        return true;
    }
}
