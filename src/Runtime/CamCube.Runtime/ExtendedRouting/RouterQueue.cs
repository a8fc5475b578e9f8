using CamCube.Services;

namespace CamCube.Runtime.ExtendedRouting;

/// <summary>One of a service's queues in the extended routing service, with its weight and time limit.</summary>
internal sealed class RouterQueue(int id, RoutingQueueOptions options, int packetsMax, TimeProvider timeProvider)
{
    public int Id { get; } = id;

    public SendQueue Packets { get; } = new(packetsMax);

    public long Stride { get; } = ServiceSlot.StrideUnit / options.Weight;

    public long QueueTimeMaxTicks { get; } = (long)(options.QueueTimeMax.TotalSeconds * timeProvider.TimestampFrequency);

    /// <summary>Gets the pass per link for weighted fair queuing across the service's queues.</summary>
    public long[] Pass { get; } = new long[LinkDirections.Count];
}
