namespace CamCube.Services.Cache.FrontEnd;

/// <summary>
/// The get family (get, gets, gat, gats): keys rooted here answer at once, the rest through the node's
/// loop. A get line may be of any length, as in memcached: its keys are answered in batches as they
/// come (a batch ends at the line buffer's end or when the token buffer is full), so neither the line
/// nor its answer is held whole; <c>END</c> follows the last batch.
/// </summary>
internal sealed partial class MemcachedConnection
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

        Get(count, first);
        return 0;
    }

    /// <summary>Answers the next batch of keys of a long get line; returns 0.</summary>
    private long ContinueGet(int length)
    {
        Get(Tokenize(length), first: 0);
        return 0;
    }

    /// <summary>Whether the current get line has keys beyond the tokens taken.</summary>
    private bool HasMoreKeys => !_lineComplete || _tokensTruncated;

    /// <summary>Answers the keys in tokens <paramref name="first"/> to <paramref name="count"/>; keeps the get going if the line has more.</summary>
    private void Get(int count, int first)
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
            invalid = !CacheKeys.IsValid(Token(i));
        }

        if (invalid)
        {
            StopGet("CLIENT_ERROR bad command line format\r\n"u8);
            return;
        }

        // Keys rooted here are answered at once, in order; from the first that is not, the rest go through the loop.
        var local = first;
        while (_getExpiration is null && local < count && _service.TryGetLocally(Token(local), this))
        {
            local++;
        }

        if (local == count)
        {
            EndGetBatch();
            return;
        }

        var operation = _getExpiration is null ? CacheOperation.Get : CacheOperation.GetAndTouch;
        for (var i = local; i < count; i++)
        {
            Issue(answersAreValues: true).Prepare(operation, TokenMemory(i), expirationSeconds: _getExpiration ?? 0);
        }

        SendIssued();
    }

    /// <summary>Ends a batch of a get: <c>END</c> after the last.</summary>
    private void EndGetBatch()
    {
        if (!_getContinues)
        {
            Write("END\r\n"u8);
        }
    }

    /// <summary>Ends a get with an error in place of <c>END</c>; the rest of its line is skipped.</summary>
    private void StopGet(ReadOnlySpan<byte> error)
    {
        WriteError(error);
        _skipLine = _getContinues;
        _getContinues = false;
    }

    /// <summary>Writes the answers of a get through the loop, in order, and <c>END</c>; stops at the first failure, whose error it writes.</summary>
    private void WriteValues()
    {
        for (var i = 0; i < _issued; i++)
        {
            var answer = _requests[i]!;
            if (answer.Status == CacheStatus.Hit)
            {
                WriteValue(answer.Key.Span, answer.ResponseValue, answer.ResponseFlags, answer.ResponseCas);
            }
            else if (answer.Status is not (CacheStatus.Miss or CacheStatus.NotFound))
            {
                var skipLine = _getContinues;
                _getContinues = false;
                WriteStatus(answer);
                _skipLine = skipLine;
                return;
            }
        }

        EndGetBatch();
    }

    /// <summary>Writes one item of a get reply: <c>VALUE key flags bytes [cas]</c>, the data and its terminator.</summary>
    private void WriteValue(ReadOnlySpan<byte> key, ReadOnlySpan<byte> value, uint flags, ulong cas)
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
