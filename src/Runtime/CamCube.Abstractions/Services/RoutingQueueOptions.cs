namespace CamCube.Services;

/// <summary>One of a service's queues in the extended routing service.</summary>
/// <param name="QueueTimeMax">The longest a packet may wait in the queue; older packets are dropped and counted as <see cref="DropReason.Expired"/>.</param>
/// <param name="Weight">The queue's share of the service's links, relative to its other queues (weighted fair queuing), 1..1,000.</param>
/// <param name="PacketsMax">The most packets that may wait in the queue at a node; more are dropped as <see cref="DropReason.QueueFull"/>. 0 (the default): the service's send-queue capacity.</param>
public sealed record RoutingQueueOptions(TimeSpan QueueTimeMax, int Weight = 1, int PacketsMax = 0)
{
    /// <summary>Gets the default queue: packets may wait up to one second, weight 1.</summary>
    public static RoutingQueueOptions Default { get; } = new(TimeSpan.FromSeconds(1));
}
