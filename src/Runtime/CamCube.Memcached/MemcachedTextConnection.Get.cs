namespace CamCube.Memcached;

/// <summary>
/// The get family (get, gets, gat, gats): the keys are checked here and handed to the subclass in
/// batches (<see cref="Get(int, int, int?)"/>). A get line may be of any length, as in memcached: its keys are answered in batches as they
/// come (a batch ends at the line buffer's end or when the token buffer is full), so neither the line
/// nor its answer is held whole; <c>END</c> follows the last batch.
/// </summary>
public abstract partial class MemcachedTextConnection
{
    /// <summary>Starts a get from its command line (or its first piece); returns 0.</summary>
    private long StartGet(int count)
    {
        var name = Token(0);
        _withCas = name[^1] == (byte)'s';
        _getExpiration = null;
        _getContinues = HasMoreKeys;
        if (count < 2)
        {
            // A get without a key; or, in a piece of a long line, a first key longer than any key can be.
            StopGet(_getContinues ? "CLIENT_ERROR bad command line format\r\n"u8 : "ERROR\r\n"u8);
            return 0;
        }

        var first = 1;
        if (name[1] == (byte)'a')
        {
            // gat <exptime> <key>*; as in memcached, a gat without keys is answered END.
            if (!TryParse(Token(1), out int exptime))
            {
                StopGet("CLIENT_ERROR invalid exptime argument\r\n"u8);
                return 0;
            }

            _getExpiration = RelativeExpiration(exptime);
            first = 2;
        }

        GetBatch(count, first);
        return 0;
    }

    /// <summary>Answers the next batch of keys of a long get line; returns 0.</summary>
    private long ContinueGet(int length)
    {
        GetBatch(Tokenize(length), first: 0);
        return 0;
    }

    /// <summary>Whether the current get line has keys beyond the tokens taken.</summary>
    private bool HasMoreKeys => !_lineComplete || _tokensTruncated;

    /// <summary>Answers the keys in tokens <paramref name="first"/> to <paramref name="count"/>; keeps the get going if the line has more.</summary>
    private void GetBatch(int count, int first)
    {
        _getContinues = HasMoreKeys;
        if (_tokensTruncated)
        {
            _lineUsed = _tokens[count - 1].End.Value;
        }

        // A piece without a whole key: the next key is longer than the line buffer, so longer than any key.
        var invalid = count == first && !_lineComplete;
        for (var i = first; i < count && !invalid; i++)
        {
            invalid = !MemcachedKeys.IsValid(Token(i));
        }

        if (invalid)
        {
            StopGet("CLIENT_ERROR bad command line format\r\n"u8);
            return;
        }

        Get(first, count, _getExpiration);
    }

    /// <summary>Ends a batch of a get once its values are written: <c>END</c> after the last batch.</summary>
    protected void EndGetBatch()
    {
        if (!_getContinues)
        {
            Write("END\r\n"u8);
        }
    }

    /// <summary>Ends a get with an error in place of <c>END</c>; the rest of its line is skipped.</summary>
    /// <param name="error">The error line with its terminator.</param>
    protected void StopGet(ReadOnlySpan<byte> error)
    {
        WriteError(error);
        _skipLine = _getContinues;
        _getContinues = false;
    }

    /// <summary>Writes one item of a get reply: <c>VALUE key flags bytes [cas]</c>, the data and its terminator (the cas unique only for gets and gats).</summary>
    /// <param name="key">The item's key.</param>
    /// <param name="value">The item's value.</param>
    /// <param name="flags">The item's client flags.</param>
    /// <param name="cas">The item's cas unique.</param>
    protected void WriteValue(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value, uint flags, ulong cas)
    {
        Write("VALUE "u8);
        Write(key);
        Write(" "u8);
        WriteNumber(flags);
        Write(" "u8);
        WriteNumber((ulong)value.Length);
        if (_withCas)
        {
            Write(" "u8);
            WriteNumber(cas);
        }

        Write("\r\n"u8);
        Write(value);
        Write("\r\n"u8);
    }
}
