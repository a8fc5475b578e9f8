namespace CamCube.Transport.Udp;

/// <summary>
/// A sliding anti-replay window over 64-bit counters, as WireGuard keeps one (RFC 6479): a ring
/// of 1,024 bits; a counter is fresh if it is newer than every counter seen, or at most
/// <see cref="WindowCounters"/> behind the newest and not seen yet. Used by one thread.
/// </summary>
internal sealed class ReplayWindow
{
    /// <summary>The bits in the ring.</summary>
    public const int BitmapBits = 1024;

    /// <summary>How far behind the newest counter a datagram may be (one word of the ring is always being reused).</summary>
    public const int WindowCounters = BitmapBits - 64;

    private const int Words = BitmapBits / 64;

    private readonly ulong[] _bitmap = new ulong[Words];
    private ulong _newest;
    private bool _any;

    /// <summary>Gets whether <paramref name="counter"/> may be accepted; changes nothing (call before the tag is checked).</summary>
    public bool IsFresh(ulong counter)
    {
        if (!_any || counter > _newest)
        {
            return true;
        }

        if (_newest - counter >= WindowCounters)
        {
            return false;
        }

        return (_bitmap[(int)((counter >> 6) % Words)] & (1UL << (int)(counter & 63))) == 0;
    }

    /// <summary>Records <paramref name="counter"/> as seen if fresh (call after the tag is checked); returns whether it was fresh.</summary>
    public bool TryAccept(ulong counter)
    {
        if (!IsFresh(counter))
        {
            return false;
        }

        if (!_any || counter > _newest)
        {
            var current = _any ? _newest >> 6 : 0;
            var target = counter >> 6;
            var clear = !_any ? Words : Math.Min(target - current, Words);
            for (ulong i = 1; i <= clear; i++)
            {
                _bitmap[(int)((current + i) % Words)] = 0;
            }

            _newest = counter;
            _any = true;
        }

        _bitmap[(int)((counter >> 6) % Words)] |= 1UL << (int)(counter & 63);
        return true;
    }
}
