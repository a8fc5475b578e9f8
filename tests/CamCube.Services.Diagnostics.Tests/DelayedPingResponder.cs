using CamCube.Packets;

namespace CamCube.Services.Diagnostics.Tests;

/// <summary>
/// A far end for ping tests, in place of <see cref="PingService"/> at the target: it turns the
/// n-th request it receives around after <c>delays[n]</c> of the node's time, or drops it when
/// that delay is null, and records when each request came (the wire format is
/// <see cref="PingService"/>'s: type, sequence, send timestamp, outbound and return hops).
/// </summary>
internal sealed class DelayedPingResponder(params TimeSpan?[] delays) : ServiceBase(PingService.ServiceId, "delayed ping responder")
{
    private const byte Reply = 2;
    private readonly List<DateTimeOffset> _arrivals = [];

    /// <summary>Gets when each request came, in the node's time.</summary>
    public IReadOnlyList<DateTimeOffset> Arrivals => _arrivals;

    public override bool OnDeliver(Packet packet)
    {
        ArgumentNullException.ThrowIfNull(packet);
        var n = _arrivals.Count;
        _arrivals.Add(Node.TimeProvider.GetUtcNow());
        if (n >= delays.Length || delays[n] is not { } delay)
        {
            return false;
        }

        ITimer? timer = null;
        timer = Node.CreateTimer(
            () =>
            {
                timer!.Dispose();
                packet.Payload[0] = Reply;
                Node.RouteToServer(packet, packet.Source);
            },
            delay,
            Timeout.InfiniteTimeSpan);
        return true;
    }
}
