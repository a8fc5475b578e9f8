using System.Globalization;
using System.Net;
using System.Net.Sockets;
using System.Text.Json;

namespace CamCube.Integration.Tests;

/// <summary>The 27-process cube on loopback: routing everywhere, failure drills, hostile datagrams.</summary>
[Collection(SharedCube.Name)]
public sealed class CubeTests(CubeFixture cube)
{
    private static readonly TorusShape s_shape = CubeFixture.Shape;

    private static string Text(Coordinate c) => string.Create(CultureInfo.InvariantCulture, $"{c.X},{c.Y},{c.Z}");

    private static IEnumerable<Coordinate> All() => Enumerable.Range(0, 27).Select(i => s_shape.CoordinateAt(i));

    [Fact]
    public void EveryNodeReachesEveryOtherAndKeysReachTheirRoots()
    {
        // Server routing: every node pings all 27 servers (itself included).
        Assert.True(cube.WaitFor(() => All().All(n => cube.Ask(n, "status").GetProperty("reachable").GetInt32() == 27), TimeSpan.FromSeconds(30)));
        foreach (var node in All())
        {
            var answer = cube.Ask(node, "pingall 5000");
            Assert.True(answer.GetProperty("reached").GetInt32() == 27, $"{node}: {answer}");
        }

        // Key routing: probes from every node land on the root the keyspace gives.
        var keySpace = KeySpace.For(s_shape);
        foreach (var node in All())
        {
            for (var k = 0; k < 4; k++)
            {
                var key = $"user:{node.X}{node.Y}{node.Z}:{k}";
                var root = keySpace.GetServersForKey(Key.FromString(key), 1)[0];
                var answer = cube.Ask(node, "probe " + key);
                Assert.Equal(Text(root), answer.GetProperty("root").GetString());
            }
        }
    }

    [Fact]
    public void PingOverOneHopAndOverTheLongestPathReportsHopsAndRoundTrips()
    {
        var (exit, output, error) = Camcube.Run(cube.StateDirectory, "ping", "0,0,0", "1,0,0", "--count", "5", "--json");
        Assert.True(exit == 0, error);
        using var oneHop = JsonDocument.Parse(output);
        Assert.Equal(1, oneHop.RootElement.GetProperty("hops").GetInt32());
        Assert.Equal(0, oneHop.RootElement.GetProperty("lost").GetInt32());
        var rtt = oneHop.RootElement.GetProperty("rttMicroseconds");
        Assert.True(rtt.GetProperty("min").GetDouble() > 0 && rtt.GetProperty("min").GetDouble() <= rtt.GetProperty("median").GetDouble() && rtt.GetProperty("median").GetDouble() <= rtt.GetProperty("max").GetDouble());
        Assert.Equal("[0,0,0]", oneHop.RootElement.GetProperty("from").GetRawText());

        (exit, output, error) = Camcube.Run(cube.StateDirectory, "ping", "0,0,0", "1,1,1", "--json");
        Assert.True(exit == 0, error);
        using var longest = JsonDocument.Parse(output);
        Assert.Equal(3, longest.RootElement.GetProperty("hops").GetInt32());
    }

    [Fact]
    public void KilledNodeIsDetectedRoutedAroundAndRejoinsWhenStarted()
    {
        var victim = new Coordinate(1, 1, 1);
        Assert.True(cube.WaitFor(() => All().All(n => cube.Ask(n, "status").GetProperty("reachable").GetInt32() == 27), TimeSpan.FromSeconds(30)));
        var (exit, _, error) = Camcube.Run(cube.StateDirectory, "cube", "kill", "1,1,1");
        Assert.True(exit == 0, error);
        var killedAt = TimeProvider.System.GetTimestamp();

        // Its six neighbours see the link go down within the link timeout (a second on a cube of processes), give or take scheduling.
        var neighbors = new Coordinate[6];
        s_shape.GetNeighbors(victim, neighbors);
        Assert.True(cube.WaitFor(() => neighbors.All(n => cube.Ask(n, "status").GetProperty("linksUp").GetInt32() == 5), TimeSpan.FromSeconds(5)));
        Assert.True(TimeProvider.System.GetElapsedTime(killedAt) < TimeSpan.FromSeconds(3));

        // Every view converges; routing goes around; the victim's keys move to the servers GetServersForKey gives.
        var survivors = All().Where(n => n != victim).ToArray();
        Assert.True(cube.WaitFor(() => survivors.All(n => cube.Ask(n, "status").GetProperty("reachable").GetInt32() == 26), TimeSpan.FromSeconds(10)));
        Assert.Equal(26, cube.Ask(new Coordinate(1, 0, 1), "pingall 3000").GetProperty("reached").GetInt32());
        var view = ReachabilityView.WithUnreachable(s_shape, [victim]);
        var keySpace = KeySpace.For(s_shape);
        var moved = 0;
        for (var k = 0; moved < 6 && k < 5_000; k++)
        {
            var key = "moved:" + k;
            if (keySpace.GetServersForKey(Key.FromString(key), 1)[0] != victim)
            {
                continue;
            }

            moved++;
            var expected = keySpace.GetServersForKey(Key.FromString(key), 1, view)[0];
            Assert.Equal(Text(expected), cube.Ask(new Coordinate(0, 0, 0), "probe " + key).GetProperty("root").GetString());
        }

        Assert.Equal(6, moved);

        (exit, _, error) = Camcube.Run(cube.StateDirectory, "cube", "start", "1,1,1");
        Assert.True(exit == 0, error);
        Assert.True(cube.WaitFor(() => All().All(n => cube.Ask(n, "status").GetProperty("reachable").GetInt32() == 27), TimeSpan.FromSeconds(30)));
        Assert.Equal(27, cube.Ask(victim, "pingall 3000").GetProperty("reached").GetInt32());
    }

    [Fact]
    public void HostileDatagramsAreDroppedAndCountedAndTheNodeKeepsRouting()
    {
        var target = new Coordinate(0, 0, 0);
        var port = cube.BasePort + (int)s_shape.IndexOf(target);
        var endpoint = new IPEndPoint(IPAddress.Loopback, port);
        var random = new Random(2026);
        var before = cube.Ask(target, "status").GetProperty("transportDropped");

        long Dropped(JsonElement t) => t.GetProperty("unknownSender").GetInt64() + t.GetProperty("badTag").GetInt64() + t.GetProperty("malformed").GetInt64() + t.GetProperty("replay").GetInt64();
        var expected = Dropped(before);

        // Sent in batches that fit the socket buffer, each counted before the next goes, so that
        // every datagram arrives (loopback drops what overflows a buffer) and each must be counted.
        void SendCounted(Socket socket, int count, Func<int, ReadOnlyMemory<byte>> make)
        {
            for (var sent = 0; sent < count;)
            {
                var batch = Math.Min(1_000, count - sent);
                for (var i = 0; i < batch; i++)
                {
                    socket.SendTo(make(sent + i).Span, SocketFlags.None, endpoint);
                }

                sent += batch;
                expected += batch;
                Assert.True(cube.WaitFor(() => Dropped(cube.Ask(target, "status").GetProperty("transportDropped")) >= expected, TimeSpan.FromSeconds(20)), $"{expected} drops expected");
            }
        }

        // 100,000 random and truncated datagrams from an address that is no neighbour.
        var buffer = new byte[1_500];
        using (var stranger = new Socket(AddressFamily.InterNetwork, SocketType.Dgram, ProtocolType.Udp))
        {
            SendCounted(stranger, 100_000, _ =>
            {
                var length = random.Next(0, buffer.Length);
                random.NextBytes(buffer.AsSpan(0, length));
                return buffer.AsMemory(0, length);
            });
        }

        // Datagrams with a bad tag from a neighbour's own address: kill the neighbour and take its port.
        var neighbor = new Coordinate(1, 0, 0);
        Assert.Equal(0, Camcube.Run(cube.StateDirectory, "cube", "kill", "1,0,0").Exit);
        const int Forged = 2_000;
        try
        {
            var badTagBefore = cube.Ask(target, "status").GetProperty("transportDropped").GetProperty("badTag").GetInt64();
            using (var impostor = new Socket(AddressFamily.InterNetwork, SocketType.Dgram, ProtocolType.Udp))
            {
                impostor.Bind(new IPEndPoint(IPAddress.Loopback, cube.BasePort + (int)s_shape.IndexOf(neighbor)));
                var datagram = new byte[200];
                SendCounted(impostor, Forged, i =>
                {
                    random.NextBytes(datagram);
                    datagram[0] = 0xCC;                                  // magic
                    datagram[1] = 2;                                     // version
                    datagram[2] = (byte)LinkDirection.MinusX;            // the neighbour's link towards (0,0,0)
                    datagram[3] = 0;                                     // frames
                    System.Buffers.Binary.BinaryPrimitives.WriteUInt64BigEndian(datagram.AsSpan(4), ulong.MaxValue - (ulong)i);
                    return datagram;
                });
            }

            var after = cube.Ask(target, "status").GetProperty("transportDropped");
            Assert.Equal(Forged, after.GetProperty("badTag").GetInt64() - badTagBefore);
            Assert.True(Dropped(after) >= expected);
            Assert.True(cube.Ask(target, "status").GetProperty("running").GetBoolean());
        }
        finally
        {
            // Still routing, and the neighbour rejoins once it is back (also when an assertion failed, for the tests after this one).
            Camcube.Run(cube.StateDirectory, "cube", "start", "1,0,0");
        }

        Assert.True(cube.WaitFor(() => cube.Ask(target, "pingall 2000").GetProperty("reached").GetInt32() == 27, TimeSpan.FromSeconds(30)));
    }
}
