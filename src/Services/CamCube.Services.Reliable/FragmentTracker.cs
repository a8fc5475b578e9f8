namespace CamCube.Services.Reliable;

/// <summary>
/// Which fragments of one multi-packet value have arrived, so that a fragment that comes twice (a
/// duplicated packet, or a request sent again) is counted once. Every fragment but the last carries
/// a full chunk of the same length c at an offset that is a multiple of c; the last is the one that
/// ends at the value's length, at a multiple of c too, and is at most c long. Reusable: <see cref="Reset"/> keeps the bitmap's memory.
/// </summary>
public sealed class FragmentTracker
{
    private ulong[] _seen = [];
    private int _chunkBytes;
    private bool _lastSeen;
    private int _lastOffset;
    private int _lastLength;

    /// <summary>Gets the bytes of distinct fragments taken so far.</summary>
    public int ReceivedBytes { get; private set; }

    /// <summary>Forgets every fragment, for the next value.</summary>
    public void Reset()
    {
        Array.Clear(_seen);
        _chunkBytes = 0;
        _lastSeen = false;
        _lastOffset = 0;
        _lastLength = 0;
        ReceivedBytes = 0;
    }

    /// <summary>Takes the fragment of <paramref name="length"/> bytes at <paramref name="offset"/> of a value of <paramref name="total"/> bytes.</summary>
    /// <returns>
    /// False if it was taken already or does not fit the fragments seen so far (a chunk of another size,
    /// an offset off the chunk grid, a last fragment off the grid or longer than a chunk, or bytes outside
    /// the value): so the bytes taken add up to <paramref name="total"/> only when every byte came.
    /// </returns>
    public bool TryAdd(int offset, int length, int total)
    {
        if (offset < 0 || length < 0 || (long)offset + length > total)
        {
            return false;
        }

        if (offset + length == total)
        {
            if (_lastSeen || (length == 0 && total != 0) || (_chunkBytes != 0 && (offset % _chunkBytes != 0 || length > _chunkBytes)))
            {
                return false;
            }

            _lastSeen = true;
            _lastOffset = offset;
            _lastLength = length;
            ReceivedBytes += length;
            return true;
        }

        if (length == 0 || (_chunkBytes != 0 && length != _chunkBytes) || offset % length != 0
            || (_lastSeen && (_lastOffset % length != 0 || _lastLength > length)))
        {
            return false;
        }

        _chunkBytes = length;
        var index = offset / length;
        var words = (((total + length - 1) / length) + 63) / 64;
        if (_seen.Length < words)
        {
            Array.Resize(ref _seen, words);
        }

        ref var word = ref _seen[index >> 6];
        var bit = 1UL << (index & 63);
        if ((word & bit) != 0)
        {
            return false;
        }

        word |= bit;
        ReceivedBytes += length;
        return true;
    }
}
