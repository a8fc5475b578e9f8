using CamCube.Cli.Nodes;
using CamCube.Transport.Udp;

namespace CamCube.UdpDrivers;

/// <summary>The UDP transports' counters summed (datagrams sent and received: frames datagrams; credit datagrams apart) over the nodes of a cube (read off the loops: they are atomic counters).</summary>
internal readonly record struct TransportTotals(long DatagramsSent, long DatagramsReceived, long CreditTimeouts, long SendErrors, long WakeDatagrams, long CreditDatagramsSent)
{
    public static TransportTotals Of(IEnumerable<CamCubeNode> nodes)
    {
        var totals = default(TransportTotals);
        foreach (var node in nodes)
        {
            for (var d = 0; d < LinkDirections.Count; d++)
            {
                var c = node.Transport.GetCounters((LinkDirection)d);
                totals += new TransportTotals(c.DatagramsSent, c.DatagramsReceived, c.CreditTimeouts, c.SendErrors, 0, c.CreditDatagramsSent);
            }

            if (node.Loop is UdpEventLoop loop)
            {
                totals += new TransportTotals(0, 0, 0, 0, loop.WakeDatagramsSent, 0);
            }
        }

        return totals;
    }

    public static TransportTotals operator +(TransportTotals a, TransportTotals b) =>
        new(a.DatagramsSent + b.DatagramsSent, a.DatagramsReceived + b.DatagramsReceived, a.CreditTimeouts + b.CreditTimeouts, a.SendErrors + b.SendErrors, a.WakeDatagrams + b.WakeDatagrams, a.CreditDatagramsSent + b.CreditDatagramsSent);

    public static TransportTotals operator -(TransportTotals a, TransportTotals b) =>
        new(a.DatagramsSent - b.DatagramsSent, a.DatagramsReceived - b.DatagramsReceived, a.CreditTimeouts - b.CreditTimeouts, a.SendErrors - b.SendErrors, a.WakeDatagrams - b.WakeDatagrams, a.CreditDatagramsSent - b.CreditDatagramsSent);
}
