using System.Net;

namespace CamCube.Memcached;

/// <summary>Settings of a memcached front-end (<see cref="MemcachedListener"/>). Every limit is per front-end or per connection, as named.</summary>
public sealed class MemcachedFrontEndOptions
{
    /// <summary>The memcached default port.</summary>
    public const int DefaultPort = 11211;

    /// <summary>Gets or sets where the front-end listens (TCP only; there is no UDP listener). Default 127.0.0.1:11211; port 0 picks a free one.</summary>
    public IPEndPoint EndPoint { get; set; } = new(IPAddress.Loopback, DefaultPort);

    /// <summary>Gets or sets how many clients may be connected at once; one more is told <c>SERVER_ERROR Too many open connections</c> and closed. Default 1,024.</summary>
    public int ConnectionsMax { get; set; } = 1024;

    /// <summary>
    /// Gets or sets the longest command line, in bytes, and so the line buffer of each connection. A
    /// get line may be longer: its keys are answered in batches as they arrive, as memcached answers a
    /// get of any length. Any other command longer than this closes the connection without a reply, as
    /// memcached does. Default 4,096.
    /// </summary>
    public int LineLengthMax { get; set; } = 4096;

    /// <summary>Gets or sets how many keys of a get a connection looks up at once; a get naming more is answered in batches of this many. Default 128.</summary>
    public int KeysPerGetMax { get; set; } = 128;

    /// <summary>Gets or sets the buffered reply bytes after which a connection flushes before reading on. Default 64 KiB.</summary>
    public int ReplyFlushThresholdBytes { get; set; } = 64 * 1024;

    /// <summary>
    /// Gets or sets how many clients get a thread of their own that blocks in receive and also awaits
    /// the answers of their commands that go through the node's loop: a command then costs one thread
    /// wake-up where asynchronous sockets cost two (the socket engine's thread, then a pool thread),
    /// and the thread pool's spinning is spared. Clients beyond it are served with asynchronous
    /// sockets. Default 64 (each thread reserves a 256 KiB stack); 0 serves every client asynchronously.
    /// </summary>
    public int ReceiveThreadsMax { get; set; } = 64;

    /// <summary>Gets or sets the clock for memcached's absolute expiry times (Unix seconds). Default the system clock.</summary>
    public TimeProvider TimeProvider { get; set; } = TimeProvider.System;

    /// <summary>Gets or sets the version the <c>version</c> command reports.</summary>
    public string Version { get; set; } = "1.6.0-camcube";

    /// <summary>Checks the settings.</summary>
    /// <exception cref="ArgumentOutOfRangeException">A setting is out of range.</exception>
    /// <exception cref="ArgumentNullException">The end point or the clock is null.</exception>
    public void Validate()
    {
        ArgumentNullException.ThrowIfNull(EndPoint, nameof(EndPoint));
        ArgumentNullException.ThrowIfNull(TimeProvider, nameof(TimeProvider));
        ArgumentOutOfRangeException.ThrowIfLessThan(ConnectionsMax, 1, nameof(ConnectionsMax));
        ArgumentOutOfRangeException.ThrowIfLessThan(LineLengthMax, 300, nameof(LineLengthMax));
        ArgumentOutOfRangeException.ThrowIfLessThan(KeysPerGetMax, 1, nameof(KeysPerGetMax));
        ArgumentOutOfRangeException.ThrowIfLessThan(ReplyFlushThresholdBytes, 1, nameof(ReplyFlushThresholdBytes));
        ArgumentOutOfRangeException.ThrowIfNegative(ReceiveThreadsMax, nameof(ReceiveThreadsMax));
    }
}
