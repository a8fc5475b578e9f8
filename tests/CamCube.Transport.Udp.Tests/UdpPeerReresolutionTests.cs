using System.Collections.Concurrent;
using System.Net;
using System.Net.Sockets;

namespace CamCube.Transport.Udp.Tests;

/// <summary>
/// Neighbours named by a host pattern, as in compose or Kubernetes, on distinct loopback
/// addresses with one port; the names resolve through a table the test changes, as DNS would
/// when a container comes back at a new address.
/// </summary>
public sealed class UdpPeerReresolutionTests
{
    private static readonly TorusShape s_shape = new(2, 1, 1);
    private static readonly Coordinate s_a = new(0, 0, 0);
    private static readonly Coordinate s_b = new(1, 0, 0);

    private readonly ConcurrentDictionary<string, IPAddress> _names = new(StringComparer.Ordinal);
    private readonly int _port = TestCube.FindFreeBasePort(1);

    [Fact]
    public void ANeighbourBackAtANewAddressUnderItsNameIsReachedAgainBothWays()
    {
        _names["peer0"] = IPAddress.Parse("127.0.0.2");
        _names["peer1"] = IPAddress.Parse("127.0.0.3");
        using var a = TestNode.Start(s_shape, s_a, Options("127.0.0.2"));
        var b = TestNode.Start(s_shape, s_b, Options("127.0.0.3"));
        Assert.Equal(1, a.SendBurst(LinkDirection.PlusX, [[1, 2, 3]]));
        Assert.True(b.Sink.WaitFor(s => s.FrameCount == 1, TimeSpan.FromSeconds(10)));

        // The neighbour stops and comes back at another address under the same name.
        b.Dispose();
        _names["peer1"] = IPAddress.Parse("127.0.0.4");
        using var moved = TestNode.Start(s_shape, s_b, Options("127.0.0.4"));

        // A's datagrams go unanswered until the credit timeout makes A look the name up again.
        var reached = false;
        for (var attempt = 0; attempt < 400 && !reached; attempt++)
        {
            a.SendBurst(LinkDirection.PlusX, [[4, 5, 6]]);
            reached = moved.Sink.WaitFor(s => s.FrameCount > 0, TimeSpan.FromMilliseconds(25));
        }

        Assert.True(reached, "the moved neighbour never received a frame");
        Assert.Equal(new IPEndPoint(IPAddress.Parse("127.0.0.4"), _port), a.Transport.GetPeer(LinkDirection.PlusX));
        Assert.Equal(1, a.Transport.GetCounters(LinkDirection.PlusX).PeerAddressChanges);

        // And A now accepts what the neighbour sends from its new address.
        Assert.Equal(1, moved.SendBurst(LinkDirection.PlusX, [[7, 8, 9]]));
        Assert.True(a.Sink.WaitFor(s => s.Frames.Any(f => f.Bytes.SequenceEqual(new byte[] { 7, 8, 9 })), TimeSpan.FromSeconds(10)));
    }

    [Fact]
    public void AFailedLookupKeepsTheOldAddressAndIsCounted()
    {
        _names["peer0"] = IPAddress.Parse("127.0.0.5");
        _names["peer1"] = IPAddress.Parse("127.0.0.6");
        using var a = TestNode.Start(s_shape, s_a, Options("127.0.0.5"));

        // Nobody listens at peer1, and its name stops resolving.
        _names.TryRemove("peer1", out _);
        var failed = false;
        for (var attempt = 0; attempt < 400 && !failed; attempt++)
        {
            a.SendBurst(LinkDirection.PlusX, [[1]]);
            failed = SpinWait.SpinUntil(() => a.Transport.PeerLookupFailures > 0, TimeSpan.FromMilliseconds(25));
        }

        Assert.True(failed, "no lookup of the silent neighbour's name was made");
        Assert.Equal(new IPEndPoint(IPAddress.Parse("127.0.0.6"), _port), a.Transport.GetPeer(LinkDirection.PlusX));
        Assert.Equal(0, a.Transport.GetCounters(LinkDirection.PlusX).PeerAddressChanges);
    }

    [Fact]
    public void ANegativeResolveIntervalIsRefusedByName()
    {
        var ex = Assert.Throws<ArgumentOutOfRangeException>(() => new UdpTransportOptions
        {
            Addressing = UdpPeerAddressing.FromHostPattern($"peer{{x}}:{_port}"),
            PeerResolveIntervalMin = TimeSpan.FromSeconds(-1),
        }.Validate());
        Assert.Equal(nameof(UdpTransportOptions.PeerResolveIntervalMin), ex.ParamName);
    }

    private UdpTransportOptions Options(string bind) => new()
    {
        Addressing = UdpPeerAddressing.FromHostPattern($"peer{{x}}:{_port}"),
        BindEndPoint = new IPEndPoint(IPAddress.Parse(bind), _port),
        ClusterKey = TestCube.Key,
        HostResolver = Resolve,
        CreditTimeoutMilliseconds = 20,
        DatagramsInFlightMax = 8,
        PeerResolveIntervalMin = TimeSpan.Zero,
    };

    private Task<IPAddress[]> Resolve(string host, AddressFamily family, CancellationToken cancellationToken) =>
        _names.TryGetValue(host, out var address)
            ? Task.FromResult(new[] { address })
            : Task.FromException<IPAddress[]>(new SocketException((int)SocketError.HostNotFound));
}
