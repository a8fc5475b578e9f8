using CamCube.Packets;
using CamCube.Runtime;
using Microsoft.Extensions.Logging;

namespace CamCube.Testing;

/// <summary>Settings of an <see cref="InMemoryCube"/>.</summary>
public sealed class InMemoryCubeOptions
{
    /// <summary>Gets or sets how many frames a link carries at a time. Default 4.</summary>
    public int LinkCapacityFrames { get; set; } = 4;

    /// <summary>Gets or sets the capacity of every packet buffer. Default 9,000 bytes.</summary>
    public int PacketCapacityBytes { get; set; } = PacketPool.DefaultPacketCapacityBytes;

    /// <summary>Gets or sets where the nodes log; nowhere if null.</summary>
    public ILoggerFactory? LoggerFactory { get; set; }

    /// <summary>Gets or sets a function that makes each node's options; defaults if null.</summary>
    public Func<NodeOptions>? NodeOptions { get; set; }

    internal NodeOptions CreateNodeOptions() => NodeOptions?.Invoke() ?? new NodeOptions { PublishMetrics = false };
}
