using System.Buffers;

namespace CamCube.Services.Cache.FrontEnd;

/// <summary>The memcached text-protocol commands (protocol.txt of memcached 1.6).</summary>
internal sealed partial class MemcachedConnection
{
    /// <summary>memcached: an expiry above 30 days is an absolute Unix time.</summary>
    private const long RelativeExpirationMaxSeconds = 60 * 60 * 24 * 30;

    /// <summary>Runs the command in the first <paramref name="length"/> bytes of the line buffer; returns the data bytes it consumed after the line, <see cref="NeedMoreInput"/> or <see cref="CloseConnection"/>.</summary>
    private long Execute(int length, ReadOnlySequence<byte> rest)
    {
        var count = Tokenize(length);
        _noReply = count > 1 && Token(count - 1).SequenceEqual("noreply"u8);
        if (count <= 0)
        {
            WriteError(count < 0 ? "CLIENT_ERROR bad command line format\r\n"u8 : "ERROR\r\n"u8);
            return 0;
        }

        var name = Token(0);
        if (name.SequenceEqual("get"u8) || name.SequenceEqual("gets"u8))
        {
            Get(count, first: 1, expiration: null, withCas: name.Length == 4);
            return 0;
        }

        if (name.SequenceEqual("set"u8))
        {
            return Store(CacheOperation.Set, count, rest);
        }

        if (name.SequenceEqual("gat"u8) || name.SequenceEqual("gats"u8))
        {
            if (count < 3 || !TryParse(Token(1), out long exptime))
            {
                WriteError("CLIENT_ERROR bad command line format\r\n"u8);
                return 0;
            }

            Get(count, first: 2, RelativeExpiration(exptime), withCas: name.Length == 4);
            return 0;
        }

        var operation = StorageOperation(name);
        if (operation != 0)
        {
            return Store(operation, count, rest);
        }

        if (name.SequenceEqual("delete"u8))
        {
            Delete(count);
        }
        else if (name.SequenceEqual("incr"u8) || name.SequenceEqual("decr"u8))
        {
            Increment(count, increment: name[0] == (byte)'i');
        }
        else if (name.SequenceEqual("touch"u8))
        {
            Touch(count);
        }
        else if (name.SequenceEqual("flush_all"u8))
        {
            FlushAll(count);
        }
        else if (name.SequenceEqual("version"u8))
        {
            Write("VERSION "u8);
            Write(System.Text.Encoding.ASCII.GetBytes(_options.Version));
            Write("\r\n"u8);
        }
        else if (name.SequenceEqual("verbosity"u8))
        {
            Reply(count is 2 or 3 ? "OK\r\n"u8 : "ERROR\r\n"u8);
        }
        else if (name.SequenceEqual("stats"u8))
        {
            WriteStats(count);
        }
        else if (name.SequenceEqual("quit"u8))
        {
            return CloseConnection;
        }
        else
        {
            WriteError("ERROR\r\n"u8);
        }

        return 0;
    }

    private static CacheOperation StorageOperation(ReadOnlySpan<byte> name) =>
        name.SequenceEqual("add"u8) ? CacheOperation.Add
        : name.SequenceEqual("replace"u8) ? CacheOperation.Replace
        : name.SequenceEqual("append"u8) ? CacheOperation.Append
        : name.SequenceEqual("prepend"u8) ? CacheOperation.Prepend
        : name.SequenceEqual("cas"u8) ? CacheOperation.Cas
        : 0;

    /// <summary>Splits the line at spaces; returns the token count, or -1 if there are more than the buffer holds.</summary>
    private int Tokenize(int length)
    {
        var line = _line.AsSpan(0, length);
        var count = 0;
        var i = 0;
        while (i < line.Length)
        {
            while (i < line.Length && line[i] == (byte)' ')
            {
                i++;
            }

            if (i == line.Length)
            {
                break;
            }

            var start = i;
            while (i < line.Length && line[i] != (byte)' ')
            {
                i++;
            }

            if (count == _tokens.Length)
            {
                return -1;
            }

            _tokens[count++] = new Range(start, i);
        }

        return count;
    }

    private long Store(CacheOperation operation, int count, ReadOnlySequence<byte> rest)
    {
        var argumentCount = operation == CacheOperation.Cas ? 6 : 5;
        if ((count != argumentCount && count != argumentCount + 1) || (count == argumentCount + 1 && !_noReply))
        {
            WriteError("ERROR\r\n"u8);
            return 0;
        }

        ulong cas = 0;
        if (!TryParse(Token(2), out uint flags) || !TryParse(Token(3), out long exptime) || !TryParse(Token(4), out long bytes)
            || bytes < 0 || bytes > int.MaxValue - 2 || (operation == CacheOperation.Cas && !TryParse(Token(5), out cas)))
        {
            WriteError("CLIENT_ERROR bad command line format\r\n"u8);
            return 0;
        }

        if (!CacheKeys.IsValid(Token(1)))
        {
            WriteError("CLIENT_ERROR bad command line format\r\n"u8);
            return 0;
        }

        if (bytes > _service.Options.ItemSizeMaxBytes)
        {
            // memcached answers at once and swallows the value; the old item is gone.
            WriteError("SERVER_ERROR object too large for cache\r\n"u8);
            _swallowLeft = bytes + 2;
            _ = _service.ExecuteAsync(new CacheRequest { Operation = CacheOperation.Delete, Key = Token(1).ToArray() });
            return 0;
        }

        if (rest.Length < bytes + 2)
        {
            return NeedMoreInput;
        }

        var terminator = rest.Slice(bytes, 2);
        if (terminator.FirstSpan[0] != (byte)'\r' || terminator.Slice(1).FirstSpan[0] != (byte)'\n')
        {
            WriteError("CLIENT_ERROR bad data chunk\r\n"u8);
            return bytes + 2;
        }

        var value = rest.Slice(0, bytes);
        var expiration = RelativeExpiration(exptime);
        if (_service.TryStoreLocally(operation, Token(1), value, flags, expiration, cas, out var status))
        {
            WriteStatus(status);
            return bytes + 2;
        }

        // The value stays in the input buffer until the answer: ProcessAsync consumes it only then.
        Issue(answersAreValues: false).Prepare(operation, TokenMemory(1), value, flags, expiration, cas);
        SendIssued();
        return bytes + 2;
    }

    private void Delete(int count)
    {
        // memcached accepts "delete <key> 0" from old clients, and nothing else after the key but noreply.
        var plain = count - (_noReply ? 1 : 0);
        if (plain is < 2 or > 3 || (plain == 3 && !Token(2).SequenceEqual("0"u8)))
        {
            WriteError("CLIENT_ERROR bad command line format.  Usage: delete <key> [noreply]\r\n"u8);
            return;
        }

        if (_service.TryDeleteLocally(Token(1), out var status))
        {
            WriteStatus(status);
            return;
        }

        SendThroughLoop(CacheOperation.Delete);
    }

    private void Increment(int count, bool increment)
    {
        if (count - (_noReply ? 1 : 0) != 3)
        {
            WriteError("ERROR\r\n"u8);
            return;
        }

        if (!TryParse(Token(2), out ulong delta))
        {
            WriteError("CLIENT_ERROR invalid numeric delta argument\r\n"u8);
            return;
        }

        SendThroughLoop(increment ? CacheOperation.Increment : CacheOperation.Decrement, casOrDelta: delta);
    }

    private void Touch(int count)
    {
        if (count - (_noReply ? 1 : 0) != 3)
        {
            WriteError("ERROR\r\n"u8);
            return;
        }

        if (!TryParse(Token(2), out long exptime))
        {
            WriteError("CLIENT_ERROR invalid exptime argument\r\n"u8);
            return;
        }

        SendThroughLoop(CacheOperation.Touch, RelativeExpiration(exptime));
    }

    private void FlushAll(int count)
    {
        var plain = count - (_noReply ? 1 : 0);
        long delay = 0;
        if (plain > 2 || (plain == 2 && (!TryParse(Token(1), out delay) || delay < 0)))
        {
            WriteError("CLIENT_ERROR bad command line format\r\n"u8);
            return;
        }

        var relative = delay == 0 ? 0 : Math.Max(1, RelativeExpiration(delay));
        Issue(answersAreValues: false).PrepareFlush(relative);
        SendIssued();
    }

    /// <summary>Sends the command's key (token 1) through the loop; a bad key is answered by the service (CLIENT_ERROR).</summary>
    private void SendThroughLoop(CacheOperation operation, int expirationSeconds = 0, ulong casOrDelta = 0)
    {
        Issue(answersAreValues: false).Prepare(operation, TokenMemory(1), expirationSeconds: expirationSeconds, casOrDelta: casOrDelta);
        SendIssued();
    }

    /// <summary>memcached's expiry: 0 never, up to 30 days relative seconds, beyond that an absolute Unix time; negative or past is expired.</summary>
    private int RelativeExpiration(long exptime)
    {
        if (exptime == 0)
        {
            return 0;
        }

        if (exptime < 0)
        {
            return -1;
        }

        var relative = exptime <= RelativeExpirationMaxSeconds ? exptime : exptime - _options.TimeProvider.GetUtcNow().ToUnixTimeSeconds();
        return relative <= 0 ? -1 : (int)Math.Min(int.MaxValue, relative);
    }

    private void WriteStatus(CacheStatus status)
    {
        switch (status)
        {
            case CacheStatus.Stored: Reply("STORED\r\n"u8); break;
            case CacheStatus.NotStored: Reply("NOT_STORED\r\n"u8); break;
            case CacheStatus.Exists: Reply("EXISTS\r\n"u8); break;
            case CacheStatus.NotFound or CacheStatus.Miss: Reply("NOT_FOUND\r\n"u8); break;
            case CacheStatus.Deleted: Reply("DELETED\r\n"u8); break;
            case CacheStatus.Touched: Reply("TOUCHED\r\n"u8); break;
            case CacheStatus.Ok: Reply("OK\r\n"u8); break;
            case CacheStatus.NonNumeric: WriteError("CLIENT_ERROR cannot increment or decrement non-numeric value\r\n"u8); break;
            case CacheStatus.TooLarge: WriteError("SERVER_ERROR object too large for cache\r\n"u8); break;
            case CacheStatus.OutOfMemory: WriteError("SERVER_ERROR out of memory storing object\r\n"u8); break;
            case CacheStatus.InvalidKey: WriteError("CLIENT_ERROR bad command line format\r\n"u8); break;
            case CacheStatus.Busy: WriteError("SERVER_ERROR busy\r\n"u8); break;
            default: WriteError("SERVER_ERROR timeout\r\n"u8); break;
        }
    }
}
