namespace CamCube.Services.Cache.FrontEnd;

/// <summary>The get family (get, gets, gat, gats): keys rooted here answer at once, the rest through the node's loop.</summary>
internal sealed partial class MemcachedConnection
{
    private void Get(int count, int first, int? expiration, bool withCas)
    {
        if (count <= first)
        {
            WriteError("ERROR\r\n"u8);
            return;
        }

        for (var i = first; i < count; i++)
        {
            if (!CacheKeys.IsValid(Token(i)))
            {
                WriteError("CLIENT_ERROR bad command line format\r\n"u8);
                return;
            }
        }

        // Keys rooted here are answered at once, in order; from the first that is not, the rest go through the loop.
        _withCas = withCas;
        var local = first;
        while (expiration is null && local < count && _service.TryGetLocally(Token(local), this))
        {
            local++;
        }

        if (local == count)
        {
            Write("END\r\n"u8);
            return;
        }

        var operation = expiration is null ? CacheOperation.Get : CacheOperation.GetAndTouch;
        for (var i = local; i < count; i++)
        {
            Issue(answersAreValues: true).Prepare(operation, TokenMemory(i), expirationSeconds: expiration ?? 0);
        }

        SendIssued();
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
                WriteStatus(answer);
                return;
            }
        }

        Write("END\r\n"u8);
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
