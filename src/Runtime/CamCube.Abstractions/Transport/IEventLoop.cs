using CamCube.Packets;

namespace CamCube.Transport;

/// <summary>
/// A node's logical thread (DESIGN.md section 3): the node's runtime and all its services run on
/// it, one work item at a time, so service code needs no locks. Transports, timers and front-ends
/// hand work to it with <see cref="Post"/>.
/// </summary>
public interface IEventLoop
{
    /// <summary>Gets the clock of this loop: real time on a host, virtual time in tests and the simulator.</summary>
    TimeProvider TimeProvider { get; }

    /// <summary>
    /// Queues <paramref name="target"/>'s <see cref="ILoopWork.Execute"/> with the given arguments
    /// to run on the loop. Thread-safe. Allocates nothing per call in steady state.
    /// </summary>
    void Post(ILoopWork target, int code, int argument, Packet? packet);
}
