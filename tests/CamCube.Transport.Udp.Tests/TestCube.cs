using System.Net;
using System.Net.Sockets;
using System.Security.Cryptography;
using CamCube.Packets;
using CamCube.Runtime.Loops;

namespace CamCube.Transport.Udp.Tests;

/// <summary>Which event loop a test node runs on.</summary>
internal enum TestLoop
{
    /// <summary>A <see cref="UdpEventLoop"/> that reads the node's socket itself (the hosts' default).</summary>
    Udp,

    /// <summary>A <see cref="ThreadedEventLoop"/>, with the transport's receive thread.</summary>
    Threaded,
}

/// <summary>
/// Nodes of a cube on 127.0.0.1, each with its own event loop, pool, sink and UDP transport, on
/// consecutive free ports. Disposing stops every transport on its loop.
/// </summary>
internal sealed class TestCube : IDisposable
{
    private static int s_nextPort = RandomNumberGenerator.GetInt32(20_000, 30_000);

    public static readonly ClusterKey Key = ClusterKey.FromBytes(Enumerable.Range(1, 32).Select(i => (byte)i).ToArray());

    private TestCube(TorusShape shape, int basePort)
    {
        Shape = shape;
        BasePort = basePort;
    }

    public TorusShape Shape { get; }

    public int BasePort { get; }

    public List<TestNode> Nodes { get; } = [];

    public TestNode this[Coordinate c] => Nodes.Single(n => n.Self == c);

    /// <summary>
    /// Starts a node for every coordinate of <paramref name="shape"/> for which
    /// <paramref name="include"/> holds (every one if null).
    /// </summary>
    public static TestCube Start(TorusShape shape, Func<UdpPeerAddressing, UdpTransportOptions>? options = null, Func<Coordinate, bool>? include = null, TestLoop loop = TestLoop.Udp)
    {
        for (var attempt = 0; ; attempt++)
        {
            var basePort = FindFreeBasePort((int)shape.ServerCount);
            var cube = new TestCube(shape, basePort);
            try
            {
                var addressing = UdpPeerAddressing.FromBasePort(basePort);
                for (long i = 0; i < shape.ServerCount; i++)
                {
                    var c = shape.CoordinateAt(i);
                    if (include is null || include(c))
                    {
                        cube.Nodes.Add(TestNode.Start(shape, c, options?.Invoke(addressing) ?? new UdpTransportOptions { Addressing = addressing, ClusterKey = Key }, loop: loop));
                    }
                }

                return cube;
            }
            catch (InvalidOperationException) when (attempt < 5)
            {
                // Another process took one of the ports between the probe and the bind.
                cube.Dispose();
            }
        }
    }

    /// <summary>
    /// Finds <paramref name="count"/> consecutive ports that are free on 127.0.0.1 now. Ranges
    /// handed out in this process never overlap (below the kernel's ephemeral ports, which start
    /// at 32768), so tests running in parallel never hear each other.
    /// </summary>
    public static int FindFreeBasePort(int count)
    {
        for (var attempt = 0; attempt < 100; attempt++)
        {
            var basePort = Interlocked.Add(ref s_nextPort, count) - count;
            if (basePort + count > 32_000)
            {
                Interlocked.Exchange(ref s_nextPort, 20_000);
                continue;
            }

            var probes = new List<Socket>();
            try
            {
                for (var i = 0; i < count; i++)
                {
                    var s = new Socket(AddressFamily.InterNetwork, SocketType.Dgram, ProtocolType.Udp);
                    probes.Add(s);
                    s.Bind(new IPEndPoint(IPAddress.Loopback, basePort + i));
                }

                return basePort;
            }
            catch (SocketException)
            {
            }
            finally
            {
                foreach (var s in probes)
                {
                    s.Dispose();
                }
            }
        }

        throw new InvalidOperationException("No free run of UDP ports found.");
    }

    public void Dispose()
    {
        foreach (var node in Nodes)
        {
            node.Dispose();
        }
    }
}

/// <summary>One node: loop, pool, sink, transport.</summary>
internal sealed class TestNode : IDisposable
{
    private TestNode(Coordinate self, IEventLoop loop, PacketPool pool, RecordingSink sink, UdpLinkTransport transport)
    {
        Self = self;
        Loop = loop;
        Pool = pool;
        Sink = sink;
        Transport = transport;
    }

    public Coordinate Self { get; }

    public IEventLoop Loop { get; }

    /// <summary>Gets the loop as a <see cref="UdpEventLoop"/>, or null on a threaded loop.</summary>
    public UdpEventLoop? UdpLoop => Loop as UdpEventLoop;

    public PacketPool Pool { get; }

    public RecordingSink Sink { get; }

    public UdpLinkTransport Transport { get; }

    public static TestNode Start(TorusShape shape, Coordinate self, UdpTransportOptions options, PacketPool? pool = null, TestLoop loop = TestLoop.Udp) =>
        Start(shape, self, options, pool, loop == TestLoop.Udp ? new UdpEventLoop($"loop {self}") : new ThreadedEventLoop($"loop {self}"));

    /// <summary>Starts a node on <paramref name="loop"/> (a loop on a manual clock, say), which it disposes with itself.</summary>
    public static TestNode Start(TorusShape shape, Coordinate self, UdpTransportOptions options, PacketPool? pool, IEventLoop loop)
    {
        pool ??= new PacketPool(2048);
        var sink = new RecordingSink();
        var transport = new UdpLinkTransport(shape, self, loop, pool, options);
        try
        {
            LoopAction.Run(loop, () => transport.Start(sink));
        }
        catch
        {
            ((IDisposable)loop).Dispose();
            throw;
        }

        return new TestNode(self, loop, pool, sink, transport);
    }

    /// <summary>Rents a frame holding <paramref name="bytes"/>.</summary>
    public Packet Frame(ReadOnlySpan<byte> bytes)
    {
        var p = Pool.Rent();
        bytes.CopyTo(p.Buffer);
        p.Length = bytes.Length;
        return p;
    }

    /// <summary>
    /// Gets a link's counters on the loop: a datagram is counted as sent on the loop just after the
    /// socket took it, so the peer may hold its frames before a read from another thread sees it.
    /// </summary>
    public UdpLinkCounters SentCounters(LinkDirection link) => LoopAction.Run(Loop, () => Transport.GetCounters(link));

    /// <summary>Sends frames on the loop in one work item (one burst); returns how many the transport took.</summary>
    public int SendBurst(LinkDirection link, IReadOnlyList<byte[]> frames) => LoopAction.Run(Loop, () =>
    {
        var taken = 0;
        foreach (var bytes in frames)
        {
            var p = Frame(bytes);
            if (!Transport.TrySend(link, p))
            {
                p.Release();
                break;
            }

            taken++;
        }

        return taken;
    });

    public void Dispose()
    {
        try
        {
            LoopAction.Run(Loop, Transport.Stop);
        }
        finally
        {
            ((IDisposable)Loop).Dispose();
        }
    }
}
