using System.Net;
using System.Net.Sockets;
using BenchmarkDotNet.Attributes;
using CamCube.Packets;
using CamCube.Transport;
using CamCube.Transport.Udp;

namespace CamCube.Benchmarks.Udp;

/// <summary>
/// The UDP transport's whole path over real sockets on loopback, per full-size frame: node (0,0,0)
/// of a 2x1x1 cube sends bursts of 9,000-byte frames on its +x link to node (1,0,0), each node on
/// its own <see cref="UdpEventLoop"/> thread, with AES-256-GCM on every datagram and credit coming
/// back; an operation is one frame sealed, sent, received, opened and handed to the receiver's sink.
/// With <see cref="Segmentation"/> a burst's datagrams leave in one <c>sendto</c> each run (UDP
/// segmentation offload), without it one per datagram. Run with <c>--filter '*UdpTransport*'</c>.
/// </summary>
[MemoryDiagnoser]
public class UdpTransportBenchmarks
{
    /// <summary>Frames per burst: the default credit window of 32 datagrams, one frame each.</summary>
    private const int FramesPerBurst = 32;

    private const int BasePortFirst = 29_300;
    private static readonly TorusShape s_shape = new(2, 1, 1);

    private UdpEventLoop _senderLoop = null!;
    private UdpEventLoop _receiverLoop = null!;
    private UdpLinkTransport _sender = null!;
    private UdpLinkTransport _receiver = null!;
    private UdpBurstSender _burst = null!;
    private UdpCountingSink _sink = null!;
    private long _target;

    /// <summary>Gets or sets whether the transports send runs of datagrams with UDP segmentation offload.</summary>
    [Params(false, true)]
    public bool Segmentation { get; set; }

    /// <summary>Starts both nodes on free ports of loopback with a fresh cluster key, and sends one burst.</summary>
    [GlobalSetup]
    public void Setup()
    {
        var options = new UdpTransportOptions
        {
            Addressing = UdpPeerAddressing.FromBasePort(FreeBasePort()),
            ClusterKey = ClusterKey.CreateRandom(),
            SegmentationOffload = Segmentation,
        };
        var senderPool = new PacketPool();
        var receiverPool = new PacketPool();
        _senderLoop = new UdpEventLoop("bench sender");
        _receiverLoop = new UdpEventLoop("bench receiver");
        _sender = new UdpLinkTransport(s_shape, new Coordinate(0, 0, 0), _senderLoop, senderPool, options);
        _receiver = new UdpLinkTransport(s_shape, new Coordinate(1, 0, 0), _receiverLoop, receiverPool, options);
        _burst = new UdpBurstSender(senderPool) { Transport = _sender };
        _sink = new UdpCountingSink();
        OnLoop(_receiverLoop, () => _receiver.Start(_sink));
        OnLoop(_senderLoop, () => _sender.Start(_burst));
        if (_sender.UsesSegmentationOffload != Segmentation)
        {
            throw new InvalidOperationException($"Segmentation offload is {(_sender.UsesSegmentationOffload ? "on" : "off")} on this host; the benchmark asked for it {(Segmentation ? "on" : "off")}.");
        }

        SendBurstOfFullSizeFrames();
    }

    /// <summary>Stops both nodes and their loops.</summary>
    [GlobalCleanup]
    public void Cleanup()
    {
        OnLoop(_senderLoop, _sender.Stop);
        OnLoop(_receiverLoop, _receiver.Stop);
        _senderLoop.Dispose();
        _receiverLoop.Dispose();
        _sink.Dispose();
    }

    /// <summary>Sends a burst of full-size frames and waits until the receiver has every one; per frame.</summary>
    [Benchmark(OperationsPerInvoke = FramesPerBurst)]
    public void SendBurstOfFullSizeFrames()
    {
        _target += FramesPerBurst;
        _senderLoop.Post(_burst, FramesPerBurst, 0, null);
        _sink.WaitFor(_target);
    }

    /// <summary>Runs <paramref name="action"/> on <paramref name="loop"/> and waits for it (setup and cleanup only).</summary>
    private static void OnLoop(UdpEventLoop loop, Action action) => loop.InvokeAsync(() =>
    {
        action();
        return true;
    }).GetAwaiter().GetResult();

    /// <summary>Two consecutive free UDP ports on 127.0.0.1, from <see cref="BasePortFirst"/> up.</summary>
    private static int FreeBasePort()
    {
        for (var port = BasePortFirst; port < BasePortFirst + 200; port += 2)
        {
            using var a = new Socket(AddressFamily.InterNetwork, SocketType.Dgram, ProtocolType.Udp);
            using var b = new Socket(AddressFamily.InterNetwork, SocketType.Dgram, ProtocolType.Udp);
            try
            {
                a.Bind(new IPEndPoint(IPAddress.Loopback, port));
                b.Bind(new IPEndPoint(IPAddress.Loopback, port + 1));
                return port;
            }
            catch (SocketException)
            {
            }
        }

        throw new InvalidOperationException($"No two free UDP ports from {BasePortFirst} to {BasePortFirst + 200} on 127.0.0.1.");
    }
}
