using System.Diagnostics;
using System.Net;
using System.Net.Sockets;

namespace CamCube.UdpDrivers;

/// <summary>What raw UDP sockets move on loopback: pairs of a sender thread (blocking sends, as fast as it can) and a receiver thread.</summary>
internal static class RawUdp
{
    /// <summary>The socket buffers the UDP transport asks for (UdpTransportOptions.SocketBufferBytes).</summary>
    private const int SocketBufferBytes = 4 << 20;

    public static async Task<RawUdpResult> MeasureAsync(int pairs, int datagramBytes, int basePort, TimeSpan warmup, TimeSpan duration)
    {
        var stop = new StopFlag();
        var received = new long[pairs];
        var sent = new long[pairs];
        var threads = new List<Thread>();
        var sockets = new List<Socket>();
        try
        {
            for (var i = 0; i < pairs; i++)
            {
                var receiver = NewSocket();
                receiver.Bind(new IPEndPoint(IPAddress.Loopback, basePort + i));
                receiver.ReceiveTimeout = 100;
                var sender = NewSocket();
                sender.Connect(new IPEndPoint(IPAddress.Loopback, basePort + i));
                sockets.Add(receiver);
                sockets.Add(sender);
                var index = i;
                threads.Add(new Thread(() => Receive(receiver, received, index, stop)) { IsBackground = true, Name = $"raw-rx-{i}" });
                threads.Add(new Thread(() => Send(sender, datagramBytes, sent, index, stop)) { IsBackground = true, Name = $"raw-tx-{i}" });
            }

            threads.ForEach(t => t.Start());
            await Task.Delay(warmup, TimeProvider.System).ConfigureAwait(false);
            var cpu0 = Process.GetCurrentProcess().TotalProcessorTime;
            var start = TimeProvider.System.GetTimestamp();
            var received0 = Sum(received);
            var sent0 = Sum(sent);
            await Task.Delay(duration, TimeProvider.System).ConfigureAwait(false);
            var received1 = Sum(received);
            var sent1 = Sum(sent);
            var elapsed = TimeProvider.System.GetElapsedTime(start);
            var cpu = Process.GetCurrentProcess().TotalProcessorTime - cpu0;
            stop.Set();
            threads.ForEach(t => t.Join());
            return new RawUdpResult(pairs, datagramBytes, elapsed, sent1 - sent0, received1 - received0, cpu);
        }
        finally
        {
            stop.Set();
            sockets.ForEach(s => s.Dispose());
        }
    }

    private static Socket NewSocket() => new(AddressFamily.InterNetwork, SocketType.Dgram, ProtocolType.Udp)
    {
        SendBufferSize = SocketBufferBytes,
        ReceiveBufferSize = SocketBufferBytes,
    };

    private static long Sum(long[] counters)
    {
        long total = 0;
        for (var i = 0; i < counters.Length; i++)
        {
            total += Volatile.Read(ref counters[i]);
        }

        return total;
    }

    private static void Send(Socket socket, int datagramBytes, long[] sent, int index, StopFlag stop)
    {
        var buffer = new byte[datagramBytes];
        while (!stop.IsSet)
        {
            try
            {
                socket.Send(buffer);
                Interlocked.Increment(ref sent[index]);
            }
            catch (SocketException)
            {
                // Loopback refused or out of buffer: the datagram is simply not sent.
            }
        }
    }

    private static void Receive(Socket socket, long[] received, int index, StopFlag stop)
    {
        var buffer = new byte[65_536];
        while (!stop.IsSet)
        {
            try
            {
                if (socket.Receive(buffer) > 0)
                {
                    Interlocked.Increment(ref received[index]);
                }
            }
            catch (SocketException ex) when (ex.SocketErrorCode is SocketError.TimedOut or SocketError.WouldBlock or SocketError.ConnectionRefused or SocketError.ConnectionReset)
            {
            }
            catch (ObjectDisposedException)
            {
                return;
            }
        }
    }
}

/// <summary>One raw UDP measurement: datagrams sent and received in the window, and the CPU the process used.</summary>
internal readonly record struct RawUdpResult(int Pairs, int DatagramBytes, TimeSpan Elapsed, long DatagramsSent, long DatagramsReceived, TimeSpan Cpu)
{
    public double BytesPerSecond => DatagramsReceived * (double)DatagramBytes / Elapsed.TotalSeconds;

    public double LossFraction => DatagramsSent == 0 ? 0 : 1 - ((double)DatagramsReceived / DatagramsSent);

    public double CoresBusy => Cpu / Elapsed;
}
