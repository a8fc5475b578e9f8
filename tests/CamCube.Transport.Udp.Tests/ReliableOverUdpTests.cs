using CamCube.Services.Reliable;

namespace CamCube.Transport.Udp.Tests;

public sealed class ReliableOverUdpTests
{
    [Fact]
    public async Task MultiMegabyteMessageArrivesWholeAcrossThreeHopsWhenSentOverUdp()
    {
        // A ring of six servers over loopback UDP: (0,0,0) to (3,0,0) is three hops. The nodes'
        // packets are 2,048 bytes, so 4 MB take about 2,100 fragments, acknowledged one by one.
        var shape = new TorusShape(6, 1, 1);
        var source = new Coordinate(0, 0, 0);
        var destination = new Coordinate(3, 0, 0);
        var received = new List<byte[]>();
        using var cube = UdpNodeCube.Start(shape, n => n.Register(new ReliableService(0x0520, "reliable", (in ReliableMessage m) =>
        {
            if (m.Source == source)
            {
                received.Add(m.Body.ToArray());
            }
        })));
        var body = new byte[4_000_000];
        new Random(17).NextBytes(body);

        var sent = cube.On(source, n => n.GetService<ReliableService>()!.Endpoint.SendAsync(destination, body));
        await sent.WaitAsync(TimeSpan.FromSeconds(60));

        var got = cube.On(destination, _ => received.ToArray());
        Assert.Equal(body, Assert.Single(got));
    }
}
