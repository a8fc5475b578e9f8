using System.Net;
using System.Net.Sockets;
using CamCube.Packets;
using CamCube.Runtime.Loops;
using CamCube.Testing;

namespace CamCube.Transport.Udp.Tests;

public sealed class UdpLinkTransportStartTests
{
    private static readonly TorusShape s_shape = new(2, 1, 1);
    private static readonly Coordinate s_self = new(0, 0, 0);

    [Fact]
    public void StartThrowsAndSaysHowToProvideAKeyWhenThereIsNoKey()
    {
        var ex = StartExpectingFailure(new UdpTransportOptions { Addressing = UdpPeerAddressing.FromBasePort(TestCube.FindFreeBasePort(2)) });

        Assert.Contains("no cluster key", ex.Message, StringComparison.Ordinal);
        Assert.Contains(ClusterKey.DefaultEnvironmentVariable, ex.Message, StringComparison.Ordinal);
        Assert.Contains("file", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void InsecureIsRefusedWhenThePeersAreNotLoopback()
    {
        var ex = StartExpectingFailure(new UdpTransportOptions
        {
            Addressing = UdpPeerAddressing.FromBasePort(7000, IPAddress.Parse("10.1.2.3")),
            AllowInsecure = true,
        });

        Assert.Contains("insecure option is refused", ex.Message, StringComparison.Ordinal);
        Assert.Contains("10.1.2.3", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void InsecureIsRefusedWhenTheBoundAddressIsNotLoopbackEvenWithLoopbackPeers()
    {
        var ex = StartExpectingFailure(new UdpTransportOptions
        {
            Addressing = UdpPeerAddressing.FromHostPattern("127.0.0.1:7000"),
            AllowInsecure = true,
        });

        Assert.Contains("insecure option is refused", ex.Message, StringComparison.Ordinal);
        Assert.Contains("0.0.0.0", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void InsecureOnLoopbackExchangesFrames()
    {
        using var cube = TestCube.Start(s_shape, addressing => new UdpTransportOptions { Addressing = addressing, AllowInsecure = true });

        cube.Nodes[0].SendBurst(LinkDirection.PlusX, [[1, 2, 3]]);

        Assert.True(cube.Nodes[1].Sink.WaitFor(s => s.FrameCount == 1, TimeSpan.FromSeconds(10)));
        Assert.Equal([1, 2, 3], cube.Nodes[1].Sink.Frames[0].Bytes);
    }

    [Fact]
    public void NodesWithDifferentKeysDropEachOthersDatagramsAsBadTags()
    {
        var keys = new Queue<ClusterKey>([TestCube.Key, ClusterKey.CreateRandom()]);
        using var cube = TestCube.Start(s_shape, addressing => new UdpTransportOptions { Addressing = addressing, ClusterKey = keys.Dequeue() });
        var receiver = cube.Nodes[1];

        cube.Nodes[0].SendBurst(LinkDirection.PlusX, [[1]]);
        cube.Nodes[0].SendBurst(LinkDirection.PlusX, [[2]]);

        Assert.True(SpinWait.SpinUntil(() => receiver.Transport.DroppedBadTag == 2, TimeSpan.FromSeconds(10)));
        Assert.Equal(0, receiver.Sink.FrameCount);
    }

    [Fact]
    public void StartSaysThePortIsInUseWhenItIs()
    {
        var basePort = TestCube.FindFreeBasePort(2);
        using var squatter = new Socket(AddressFamily.InterNetwork, SocketType.Dgram, ProtocolType.Udp);
        squatter.Bind(new IPEndPoint(IPAddress.Loopback, basePort));

        var ex = StartExpectingFailure(new UdpTransportOptions { Addressing = UdpPeerAddressing.FromBasePort(basePort), ClusterKey = TestCube.Key });

        Assert.Contains($"127.0.0.1:{basePort}", ex.Message, StringComparison.Ordinal);
        Assert.Contains("already uses that port", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void StopReleasesEveryFrameTheTransportStillHolds()
    {
        var pool = new PacketPool(2048);
        var basePort = TestCube.FindFreeBasePort(2);
        var node = TestNode.Start(s_shape, s_self, new UdpTransportOptions
        {
            Addressing = UdpPeerAddressing.FromBasePort(basePort),
            ClusterKey = TestCube.Key,
            RateLimitBitsPerSecond = 8_000,
            RateLimitBurstBytes = 1,
        }, pool);
        try
        {
            // At 1 kB/s the first datagram goes out and the rest wait for tokens.
            var frames = Enumerable.Range(0, 40).Select(_ => new byte[1_000]).ToArray();
            Assert.Equal(40, node.SendBurst(LinkDirection.PlusX, frames));
            Assert.True(LoopAction.Run(node.Loop, () => pool.FreeCount) < 40);

            LoopAction.Run(node.Loop, node.Transport.Stop);

            Assert.Equal(pool.CreatedCount, pool.FreeCount);
            Assert.False(LoopAction.Run(node.Loop, () => node.Transport.HasRoom(LinkDirection.PlusX)));
            Assert.Throws<InvalidOperationException>(() => LoopAction.Run(node.Loop, () => node.Transport.Start(node.Sink)));
        }
        finally
        {
            node.Dispose();
        }
    }

    [Fact]
    public void SendingAllocatesNothingOnTheLoopInSteadyState()
    {
        using var cube = TestCube.Start(s_shape);
        var a = cube.Nodes[0];
        var b = cube.Nodes[1];
        var received = 0;

        long Burst(int n)
        {
            return LoopAction.Run(a.Loop, () =>
            {
                var before = GC.GetAllocatedBytesForCurrentThread();
                for (var i = 0; i < n; i++)
                {
                    var p = a.Pool.Rent();
                    p.Length = 100 + i;
                    Assert.True(a.Transport.TrySend(LinkDirection.PlusX, p));
                }

                return GC.GetAllocatedBytesForCurrentThread() - before;
            });
        }

        long LoopAllocations() => LoopAction.Run(a.Loop, GC.GetAllocatedBytesForCurrentThread);

        for (var round = 0; round < 3; round++)
        {
            Burst(60);
            received += 60;
            Assert.True(b.Sink.WaitFor(s => s.FrameCount == received, TimeSpan.FromSeconds(10)));
        }

        a.Pool.Preallocate(256);
        var inBursts = long.MaxValue;
        var total = AllocationProbe.Measure(() =>
        {
            var start = LoopAllocations();
            var bursts = 0L;
            for (var round = 0; round < 10; round++)
            {
                bursts += Burst(60);
                received += 60;
                Assert.True(b.Sink.WaitFor(s => s.FrameCount == received, TimeSpan.FromSeconds(10)));
            }

            inBursts = Math.Min(inBursts, bursts);
            return LoopAllocations() - start;
        });

        Assert.Equal(0, inBursts);

        // The loop thread ran 10 bursts, their flushes and room reports: only the test's own
        // LoopAction completions may allocate there, a few hundred bytes at most.
        Assert.InRange(total, 0, 2_048);
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void ReceivingAllocatesNothingInSteadyState(bool onUdpLoop)
    {
        using var cube = TestCube.Start(s_shape, loop: onUdpLoop ? TestLoop.Udp : TestLoop.Threaded);
        var a = cube.Nodes[0];
        var b = cube.Nodes[1];
        var frames = Enumerable.Range(0, 60).Select(i => new byte[100 + i]).ToArray();
        var received = 0;

        void Round()
        {
            Assert.Equal(60, a.SendBurst(LinkDirection.PlusX, frames));
            received += 60;
            Assert.True(b.Sink.WaitFor(s => s.FrameCount == received, TimeSpan.FromSeconds(10)));
        }

        for (var round = 0; round < 3; round++)
        {
            Round();
        }

        // However late the loop thread runs, a round has at most its 60 frames in flight: with the
        // pool holding more than that, renting never creates a packet, so any growth is the path's.
        b.Pool.Preallocate(256);
        var created = b.Pool.CreatedCount;
        var allocated = AllocationProbe.Measure(() =>
        {
            var before = b.Transport.ReceiveAllocatedBytes;
            for (var round = 0; round < 10; round++)
            {
                Round();
            }

            return b.Transport.ReceiveAllocatedBytes - before;
        });

        Assert.True(b.Transport.GetCounters(LinkDirection.PlusX).DatagramsReceived >= 13);
        Assert.Equal(0, allocated);
        Assert.Equal(created, b.Pool.CreatedCount);
    }

    private static InvalidOperationException StartExpectingFailure(UdpTransportOptions options)
    {
        using var loop = new ThreadedEventLoop("start test");
        var transport = new UdpLinkTransport(s_shape, s_self, loop, new PacketPool(2048), options);
        return Assert.Throws<InvalidOperationException>(() => LoopAction.Run(loop, () => transport.Start(new RecordingSink())));
    }
}
