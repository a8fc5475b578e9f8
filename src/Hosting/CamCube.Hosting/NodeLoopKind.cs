namespace CamCube.Hosting;

/// <summary>Which event loop a node runs on (<see cref="CamCubeNodeOptions.Loop"/>).</summary>
public enum NodeLoopKind
{
    /// <summary>A <see cref="Transport.Udp.UdpEventLoop"/>: one thread runs the node and reads its UDP socket (the default).</summary>
    Udp,

    /// <summary>A <see cref="Runtime.Loops.ThreadedEventLoop"/> plus the transport's receive thread, which posts frames to it.</summary>
    Threaded,
}
