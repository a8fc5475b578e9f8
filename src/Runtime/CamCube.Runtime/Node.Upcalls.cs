using CamCube.Packets;
using CamCube.Runtime.Posting;
using CamCube.Runtime.Upcalls;
using CamCube.Services;

namespace CamCube.Runtime;

/// <content>The one guarded call into a service: every upcall goes through it.</content>
public sealed partial class Node
{
    /// <summary>
    /// Calls a service. A service that throws loses only <paramref name="packet"/>, the packet it was
    /// lent (counted as <see cref="DropReason.ServiceFault"/> and released), and is logged; the node
    /// carries on. Returns false, with <paramref name="result"/> the default, when the service threw.
    /// </summary>
    private bool TryUpcall<TCall, TResult>(ServiceSlot slot, in TCall call, Packet? packet, out TResult result)
        where TCall : struct, IUpcall<TResult>
    {
        try
        {
            result = call.Invoke(slot);
            return true;
        }
#pragma warning disable CA1031 // A faulty service must not take the node down.
        catch (Exception ex)
#pragma warning restore CA1031
        {
            if (packet is not null)
            {
                Counters.CountDrop(DropReason.ServiceFault);
                packet.Release();
            }

            Log.ServiceThrew(_logger, ex, slot.Service.Name, call.Name, Self);
            result = default!;
            return false;
        }
    }

    /// <summary>Runs work posted to the service from another thread (or a continuation of it), guarded.</summary>
    internal void RunPosted(ServiceSlot slot, PostedItem item) => TryUpcall<PostedUpcall, bool>(slot, new PostedUpcall(item), null, out _);

    /// <summary>Runs a service's timer callback, guarded.</summary>
    internal void RunTimer(ServiceSlot slot, Action callback) => TryUpcall<TimerUpcall, bool>(slot, new TimerUpcall(callback), null, out _);

    /// <summary>Makes the same upcall, without a packet, to every data service (a snapshot: an upcall may register or deregister services).</summary>
    private void UpcallDataServices<TCall>(in TCall call)
        where TCall : struct, IUpcall<bool>
    {
        foreach (var slot in _dataSlots.ToArray())
        {
            if (slot.Registered)
            {
                TryUpcall<TCall, bool>(slot, call, null, out _);
            }
        }
    }
}
