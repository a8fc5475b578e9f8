namespace CamCube.Transport.Udp;

/// <summary>
/// A token bucket in bytes on a <see cref="TimeProvider"/>: it fills at the link's rate up to its
/// depth, and a datagram leaves only when the bucket holds its size. Used on the event loop only.
/// </summary>
internal sealed class TokenBucket
{
    private readonly TimeProvider _clock;
    private readonly double _bytesPerSecond;
    private readonly double _depthBytes;
    private double _tokens;
    private long _lastTimestamp;

    public TokenBucket(TimeProvider clock, long bitsPerSecond, int depthBytes)
    {
        _clock = clock;
        _bytesPerSecond = bitsPerSecond / 8.0;
        _depthBytes = depthBytes;
        _tokens = depthBytes;
        _lastTimestamp = clock.GetTimestamp();
    }

    /// <summary>
    /// Takes <paramref name="bytes"/> tokens if the bucket holds them; otherwise returns false and
    /// how long until it will.
    /// </summary>
    public bool TryTake(int bytes, out TimeSpan wait)
    {
        var now = _clock.GetTimestamp();
        var elapsed = _clock.GetElapsedTime(_lastTimestamp, now);
        _lastTimestamp = now;
        _tokens = Math.Min(_depthBytes, _tokens + (elapsed.TotalSeconds * _bytesPerSecond));
        if (_tokens >= bytes)
        {
            _tokens -= bytes;
            wait = TimeSpan.Zero;
            return true;
        }

        wait = TimeSpan.FromSeconds((bytes - _tokens) / _bytesPerSecond);
        return false;
    }
}
