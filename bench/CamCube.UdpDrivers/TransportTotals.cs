using CamCube.Hosting;
using CamCube.Transport.Udp;

namespace CamCube.UdpDrivers;

/// <summary>
/// The UDP transports' counters summed over the nodes of a cube (datagrams sent and received:
/// frames datagrams; credit datagrams apart; segmented sends: system calls that sent more than one
/// datagram, and the datagrams in them), read off the loops: they are atomic counters.
/// </summary>
internal readonly record struct TransportTotals(long DatagramsSent, long DatagramsReceived, long CreditTimeouts, long SendErrors, long WakeDatagrams, long CreditDatagramsSent, long SegmentedSends, long SegmentedDatagrams)
{
    public static TransportTotals Of(IEnumerable<CamCubeNode> nodes)
    {
        var totals = default(TransportTotals);
        foreach (var node in nodes)
        {
            for (var d = 0; d < LinkDirections.Count; d++)
            {
                var c = node.Transport.GetCounters((LinkDirection)d);
                totals += new TransportTotals(c.DatagramsSent, c.DatagramsReceived, c.CreditTimeouts, c.SendErrors, 0, c.CreditDatagramsSent, 0, 0);
            }

            totals += new TransportTotals(0, 0, 0, 0, node.Loop is UdpEventLoop loop ? loop.WakeDatagramsSent : 0, 0, node.Transport.SegmentedSends, node.Transport.SegmentedDatagrams);
        }

        return totals;
    }

    public static TransportTotals operator +(TransportTotals a, TransportTotals b) =>
        new(a.DatagramsSent + b.DatagramsSent, a.DatagramsReceived + b.DatagramsReceived, a.CreditTimeouts + b.CreditTimeouts, a.SendErrors + b.SendErrors, a.WakeDatagrams + b.WakeDatagrams, a.CreditDatagramsSent + b.CreditDatagramsSent, a.SegmentedSends + b.SegmentedSends, a.SegmentedDatagrams + b.SegmentedDatagrams);

    public static TransportTotals operator -(TransportTotals a, TransportTotals b) =>
        new(a.DatagramsSent - b.DatagramsSent, a.DatagramsReceived - b.DatagramsReceived, a.CreditTimeouts - b.CreditTimeouts, a.SendErrors - b.SendErrors, a.WakeDatagrams - b.WakeDatagrams, a.CreditDatagramsSent - b.CreditDatagramsSent, a.SegmentedSends - b.SegmentedSends, a.SegmentedDatagrams - b.SegmentedDatagrams);
}
