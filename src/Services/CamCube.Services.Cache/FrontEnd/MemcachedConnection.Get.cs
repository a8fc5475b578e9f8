namespace CamCube.Services.Cache.FrontEnd;

/// <summary>The get family (get, gets, gat, gats): keys rooted here answer at once, the rest through the node's loop.</summary>
internal sealed partial class MemcachedConnection
{
    private async Task GetAsync(int count, int first, int? expiration, bool withCas)
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

        if (local < count && !await GetThroughLoopAsync(local, count, expiration).ConfigureAwait(false))
        {
            return;
        }

        Write("END\r\n"u8);
    }

    /// <summary>Sends the gets of tokens <paramref name="from"/> to <paramref name="count"/> to the loop at once and writes the answers in order; false if one failed (its error was written).</summary>
    private async Task<bool> GetThroughLoopAsync(int from, int count, int? expiration)
    {
        _gets.Clear();
        for (var i = from; i < count; i++)
        {
            var request = new CacheRequest
            {
                Operation = expiration is null ? CacheOperation.Get : CacheOperation.GetAndTouch,
                Key = Token(i).ToArray(),
                ExpirationSeconds = expiration ?? 0,
            };
            _gets.Add(_service.ExecuteAsync(request));
        }

        for (var i = 0; i < _gets.Count; i++)
        {
            var response = await _gets[i].ConfigureAwait(false);
            if (response.Status == CacheStatus.Hit)
            {
                WriteValue(Token(from + i), response.Value, response.Flags, response.Cas);
            }
            else if (response.Status is not (CacheStatus.Miss or CacheStatus.NotFound))
            {
                WriteStatus(response);
                _gets.Clear();
                return false;
            }
        }

        _gets.Clear();
        return true;
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
