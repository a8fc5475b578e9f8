using System.Buffers;

namespace CamCube.Memcached;

/// <summary>The memcached text-protocol commands (protocol.txt of memcached 1.6): each is checked and parsed here, then handed to the subclass.</summary>
public abstract partial class MemcachedTextConnection
{
    /// <summary>memcached: an expiry above 30 days is an absolute Unix time.</summary>
    private const long RelativeExpirationMaxSeconds = 60 * 60 * 24 * 30;

    /// <summary>Runs the command in the first <paramref name="length"/> bytes of the line buffer; returns the data bytes it consumed after the line, <see cref="NeedMoreInput"/> or <see cref="CloseConnection"/>.</summary>
    /// <remarks>
    /// Each command checks its argument count, then takes noreply, then the rest, in memcached's
    /// order (proto_text.c), so the same malformed line gets the same answer: a wrong count is
    /// <c>ERROR</c> even with noreply, any later error is silenced by it.
    /// </remarks>
    private long Execute(int length, ReadOnlySequence<byte> rest)
    {
        var count = Tokenize(length);
        _noReply = false;
        if (!_lineComplete)
        {
            // Only a get may be longer than the line buffer; memcached closes on anything else that long.
            return count > 0 && IsGet(Token(0)) ? StartGet(count) : CloseConnection;
        }

        if (count == 0)
        {
            WriteError("ERROR\r\n"u8);
            return 0;
        }

        var name = Token(0);
        if (IsGet(name))
        {
            return StartGet(count);
        }

        if (name.SequenceEqual("set"u8))
        {
            return ParseStore(MemcachedStorageOperation.Set, count, rest);
        }

        var operation = StorageOperation(name);
        if (operation != 0)
        {
            return ParseStore(operation, count, rest);
        }

        if (name.SequenceEqual("delete"u8))
        {
            ParseDelete(count);
        }
        else if (name.SequenceEqual("incr"u8) || name.SequenceEqual("decr"u8))
        {
            ParseIncrement(count, increment: name[0] == (byte)'i');
        }
        else if (name.SequenceEqual("touch"u8))
        {
            ParseTouch(count);
        }
        else if (name.SequenceEqual("flush_all"u8))
        {
            ParseFlushAll(count);
        }
        else if (name.SequenceEqual("version"u8))
        {
            Write("VERSION "u8);
            Write(System.Text.Encoding.ASCII.GetBytes(_options.Version));
            Write("\r\n"u8);
        }
        else if (name.SequenceEqual("verbosity"u8))
        {
            Verbosity(count);
        }
        else if (name.SequenceEqual("stats"u8))
        {
            WriteStats(count);
        }
        else if (name.SequenceEqual("quit"u8))
        {
            return CloseConnection;
        }
        else if (Token(count - 1).StartsWith("HTTP/"u8))
        {
            // Someone speaks HTTP to the cache: memcached closes without a word.
            return CloseConnection;
        }
        else
        {
            WriteError("ERROR\r\n"u8);
        }

        return 0;
    }

    private static bool IsGet(ReadOnlySpan<byte> name) =>
        name.SequenceEqual("get"u8) || name.SequenceEqual("gets"u8) || name.SequenceEqual("gat"u8) || name.SequenceEqual("gats"u8);

    /// <summary>memcached's set_noreply_maybe: the last argument says noreply, whatever the count.</summary>
    private void TakeNoReply(int count) => _noReply = Token(count - 1).SequenceEqual("noreply"u8);

    private static MemcachedStorageOperation StorageOperation(ReadOnlySpan<byte> name) =>
        name.SequenceEqual("add"u8) ? MemcachedStorageOperation.Add
        : name.SequenceEqual("replace"u8) ? MemcachedStorageOperation.Replace
        : name.SequenceEqual("append"u8) ? MemcachedStorageOperation.Append
        : name.SequenceEqual("prepend"u8) ? MemcachedStorageOperation.Prepend
        : name.SequenceEqual("cas"u8) ? MemcachedStorageOperation.Cas
        : 0;

    /// <summary>Splits the line at spaces; returns the token count. Stops when the token buffer is full, leaving the rest of the line (<see cref="_tokensTruncated"/>): a get takes its keys in such batches.</summary>
    private int Tokenize(int length)
    {
        var line = _line.AsSpan(0, length);
        var count = 0;
        var i = 0;
        _tokensTruncated = false;
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

            if (count == _tokens.Length)
            {
                _tokensTruncated = true;
                break;
            }

            var start = i;
            while (i < line.Length && line[i] != (byte)' ')
            {
                i++;
            }

            _tokens[count++] = new Range(start, i);
        }

        return count;
    }

    private long ParseStore(MemcachedStorageOperation operation, int count, ReadOnlySequence<byte> rest)
    {
        var argumentCount = operation == MemcachedStorageOperation.Cas ? 6 : 5;
        if (count != argumentCount && count != argumentCount + 1)
        {
            WriteError("ERROR\r\n"u8);
            return 0;
        }

        TakeNoReply(count);
        if (!TryParse(Token(4), out long bytes) || bytes < 0 || bytes > int.MaxValue - 2)
        {
            // No length to skip the block by: as in memcached, what follows is read as a command line.
            WriteError("CLIENT_ERROR bad command line format\r\n"u8);
            return 0;
        }

        ulong cas = 0;
        if (!TryParse(Token(2), out uint flags) || !TryParse(Token(3), out int exptime)
            || (operation == MemcachedStorageOperation.Cas && !TryParse(Token(5), out cas)) || !MemcachedKeys.IsValid(Token(1)))
        {
            // Unlike memcached, which reads the block as a command line of its own, the block is
            // skipped: a value such as "flush_all" or "delete k" is never run (docs/decisions.md).
            WriteError("CLIENT_ERROR bad command line format\r\n"u8);
            _swallowLeft = bytes + 2;
            return 0;
        }

        if (bytes > ItemSizeMaxBytes)
        {
            // memcached answers at once and swallows the value.
            WriteError("SERVER_ERROR object too large for cache\r\n"u8);
            _swallowLeft = bytes + 2;
            OnValueTooLarge(TokenMemory(1), operation);
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

        // The value stays in the input buffer until the command's answers are written: ProcessAsync consumes it only then.
        Store(TokenMemory(1), new MemcachedStorageCommand(operation, flags, RelativeExpiration(exptime), cas), rest.Slice(0, bytes));
        return bytes + 2;
    }

    private void ParseDelete(int count)
    {
        if (count is < 2 or > 4)
        {
            WriteError("ERROR\r\n"u8);
            return;
        }

        if (count > 2)
        {
            // memcached accepts "delete <key> 0" from old clients, and nothing else after the key but noreply.
            var holdIsZero = Token(2).SequenceEqual("0"u8);
            TakeNoReply(count);
            if (!(count == 3 ? holdIsZero || _noReply : holdIsZero && _noReply))
            {
                WriteError("CLIENT_ERROR bad command line format.  Usage: delete <key> [noreply]\r\n"u8);
                return;
            }
        }

        if (!MemcachedKeys.IsValid(Token(1)))
        {
            WriteError("CLIENT_ERROR bad command line format\r\n"u8);
            return;
        }

        Delete(TokenMemory(1));
    }

    private void ParseIncrement(int count, bool increment)
    {
        if (count is not (3 or 4))
        {
            WriteError("ERROR\r\n"u8);
            return;
        }

        TakeNoReply(count);
        if (!MemcachedKeys.IsValid(Token(1)))
        {
            WriteError("CLIENT_ERROR bad command line format\r\n"u8);
            return;
        }

        if (!TryParse(Token(2), out ulong delta))
        {
            WriteError("CLIENT_ERROR invalid numeric delta argument\r\n"u8);
            return;
        }

        Increment(TokenMemory(1), delta, increment);
    }

    private void ParseTouch(int count)
    {
        if (count is not (3 or 4))
        {
            WriteError("ERROR\r\n"u8);
            return;
        }

        TakeNoReply(count);
        if (!MemcachedKeys.IsValid(Token(1)))
        {
            WriteError("CLIENT_ERROR bad command line format\r\n"u8);
            return;
        }

        if (!TryParse(Token(2), out int exptime))
        {
            WriteError("CLIENT_ERROR invalid exptime argument\r\n"u8);
            return;
        }

        Touch(TokenMemory(1), RelativeExpiration(exptime));
    }

    private void ParseFlushAll(int count)
    {
        if (count > 3)
        {
            WriteError("ERROR\r\n"u8);
            return;
        }

        TakeNoReply(count);
        var delay = 0;
        if (count != (_noReply ? 2 : 1) && !TryParse(Token(1), out delay))
        {
            WriteError("CLIENT_ERROR invalid exptime argument\r\n"u8);
            return;
        }

        // As in memcached, a delay of zero or less flushes now.
        FlushAll(delay <= 0 ? 0 : Math.Max(1, RelativeExpiration(delay)));
    }

    private void Verbosity(int count)
    {
        if (count is not (2 or 3))
        {
            WriteError("ERROR\r\n"u8);
            return;
        }

        TakeNoReply(count);
        Reply(TryParse(Token(1), out uint _) ? "OK\r\n"u8 : "CLIENT_ERROR bad command line format\r\n"u8);
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
}
