using System.Net;
using CamCube.Memcached;

namespace CamCube.Services.KeyValue.FrontEnd;

/// <summary>Settings of a <see cref="KeyValueFrontEnd"/>, the store's memcached front-end.</summary>
public sealed class KeyValueFrontEndOptions
{
    /// <summary>The front-end's base port: node i listens on 11311 + i by default, beside the cache's 11211 + i.</summary>
    public const int DefaultPort = 11311;

    /// <summary>The bytes the front-end keeps before each value in the store (flags, expiry, written time; MemcachedItemFormat.md).</summary>
    public const int ItemHeaderBytes = 24;

    /// <summary>Gets or sets the listener's settings (end point, connection and line limits, clock, version); the end point defaults to 127.0.0.1:11311.</summary>
    public MemcachedFrontEndOptions Connections { get; set; } = new() { EndPoint = new IPEndPoint(IPAddress.Loopback, DefaultPort) };

    /// <summary>Gets or sets the largest value a client may store, in bytes (the item's 24-byte header not counted); a larger one is answered <c>SERVER_ERROR object too large for cache</c>. Default 1 MiB, memcached's.</summary>
    public int ItemSizeMaxBytes { get; set; } = 1024 * 1024;

    /// <summary>Gets or sets how long a front-end trusts the flush_all time it last read before reading it again, in milliseconds: a flush_all through another node's front-end takes effect here within this time. Default 1,000.</summary>
    public int FlushCheckMilliseconds { get; set; } = 1000;

    /// <summary>Gets or sets how many times a read-modify-write (incr, decr, append, prepend, replace, touch, gat) is tried when the item changes under it, before <c>SERVER_ERROR busy</c>. Default 32.</summary>
    public int ConditionalRetriesMax { get; set; } = 32;

    /// <summary>Checks the settings.</summary>
    /// <exception cref="ArgumentNullException">The listener's settings are null.</exception>
    /// <exception cref="ArgumentOutOfRangeException">A setting is out of range.</exception>
    public void Validate()
    {
        ArgumentNullException.ThrowIfNull(Connections, nameof(Connections));
        Connections.Validate();
        ArgumentOutOfRangeException.ThrowIfLessThan(ItemSizeMaxBytes, 1, nameof(ItemSizeMaxBytes));
        ArgumentOutOfRangeException.ThrowIfNegative(FlushCheckMilliseconds, nameof(FlushCheckMilliseconds));
        ArgumentOutOfRangeException.ThrowIfLessThan(ConditionalRetriesMax, 1, nameof(ConditionalRetriesMax));
    }
}
