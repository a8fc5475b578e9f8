using System.Diagnostics.Metrics;
using CamCube.Services;

namespace CamCube.Runtime;

/// <summary>
/// Publishes a node's counters through System.Diagnostics.Metrics (meter <c>CamCube.Runtime</c>),
/// as observable instruments read when a listener collects, so the packet path pays nothing.
/// </summary>
internal sealed class NodeMetrics : IDisposable
{
    public const string MeterName = "CamCube.Runtime";

    private readonly Meter _meter;
    private readonly bool _ownsMeter;

    public NodeMetrics(Node node)
    {
        // A host's factory owns the meters it makes (and disposes them with the host).
        _ownsMeter = node.Options.MeterFactory is null;
        _meter = node.Options.MeterFactory?.Create(MeterName) ?? new Meter(MeterName);
        var nodeTag = new KeyValuePair<string, object?>("camcube.node", node.Self.ToString());
        var linkTags = new KeyValuePair<string, object?>[LinkDirections.Count];
        for (var d = 0; d < linkTags.Length; d++)
        {
            linkTags[d] = new("camcube.link", ((LinkDirection)d).ToShortName());
        }

        _meter.CreateObservableCounter("camcube.link.packets_sent", () => PerLink(node, linkTags, nodeTag, static c => c.PacketsSent), "{packet}", "Frames sent per link.");
        _meter.CreateObservableCounter("camcube.link.bytes_sent", () => PerLink(node, linkTags, nodeTag, static c => c.BytesSent), "By", "Bytes sent per link.");
        _meter.CreateObservableCounter("camcube.link.packets_received", () => PerLink(node, linkTags, nodeTag, static c => c.PacketsReceived), "{packet}", "Frames received per link.");
        _meter.CreateObservableCounter("camcube.link.bytes_received", () => PerLink(node, linkTags, nodeTag, static c => c.BytesReceived), "By", "Bytes received per link.");
        _meter.CreateObservableCounter("camcube.service.packets_sent", () => PerService(node, nodeTag, static c => c.PacketsSent), "{packet}", "Packets sent per service.");
        _meter.CreateObservableCounter("camcube.service.bytes_sent", () => PerService(node, nodeTag, static c => c.BytesSent), "By", "Bytes sent per service.");
        _meter.CreateObservableCounter("camcube.service.packets_received", () => PerService(node, nodeTag, static c => c.PacketsReceived), "{packet}", "Packets received per service.");
        _meter.CreateObservableCounter("camcube.service.bytes_received", () => PerService(node, nodeTag, static c => c.BytesReceived), "By", "Bytes received per service.");
        _meter.CreateObservableCounter("camcube.packets_dropped", () => Drops(node, nodeTag), "{packet}", "Packets dropped, by reason.");
        _meter.CreateObservableCounter("camcube.drop_notices_suppressed", () => new Measurement<long>(node.Counters.DropNoticesSuppressed, nodeTag), "{notice}", "Drop notices not sent: past the node's rate.");
    }

    public void Dispose()
    {
        if (_ownsMeter)
        {
            _meter.Dispose();
        }
    }

    private static IEnumerable<Measurement<long>> PerLink(Node node, KeyValuePair<string, object?>[] linkTags, KeyValuePair<string, object?> nodeTag, Func<LinkCounters, long> read)
    {
        for (var d = 0; d < LinkDirections.Count; d++)
        {
            if (node.Shape.HasLink((LinkDirection)d))
            {
                yield return new Measurement<long>(read(node.Counters.Links[d]), nodeTag, linkTags[d]);
            }
        }
    }

    private static IEnumerable<Measurement<long>> PerService(Node node, KeyValuePair<string, object?> nodeTag, Func<ServiceCounters, long> read)
    {
        foreach (var (name, counters) in node.ServiceCounterSnapshot())
        {
            yield return new Measurement<long>(read(counters), nodeTag, new("camcube.service", name));
        }
    }

    private static IEnumerable<Measurement<long>> Drops(Node node, KeyValuePair<string, object?> nodeTag)
    {
        foreach (var reason in Enum.GetValues<DropReason>())
        {
            yield return new Measurement<long>(node.Counters.Dropped(reason), nodeTag, new("camcube.reason", reason.ToString()));
        }
    }
}
