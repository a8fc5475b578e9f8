using System.Diagnostics;
using System.Globalization;
using CamCube.Testing.Freshness;

namespace CamCube.Integration.Tests;

/// <summary>
/// One client of a cache history on a node's memcached front-end: it sets (every value its own),
/// deletes and gets a few keys, one command at a time, and records each request with when it was
/// sent and answered on the host's monotonic clock. A write answered with an error line, or not at
/// all, may or may not have taken effect (<see cref="CacheHistoryOutcome.Unknown"/>); a read that
/// fails is recorded as unknown too, and not checked.
/// </summary>
internal sealed class MemcachedCacheHistoryClient(int id, int port, string[] keys, Random random) : IDisposable
{
    private MemcachedTextClient? _connection;
    private int _written;

    /// <summary>Gets the requests this client finished or gave up on, in the order it issued them.</summary>
    public List<CacheHistoryEntry> History { get; } = [];

    /// <summary>Gets how many requests were answered without an error.</summary>
    public int Answered { get; private set; }

    /// <summary>Runs one random request: 75% gets, 22% sets, 3% deletes.</summary>
    public void RunOne()
    {
        var key = keys[random.Next(keys.Length)];
        var roll = random.Next(100);
        if (roll < 75)
        {
            Get(key);
        }
        else if (roll < 97)
        {
            var value = string.Create(CultureInfo.InvariantCulture, $"c{id}.{++_written}");
            Write(key, CacheHistoryOperation.Set, value, $"set {key} 0 0 {value.Length}", value, "STORED");
        }
        else
        {
            Write(key, CacheHistoryOperation.Delete, null, $"delete {key}", null, "DELETED", "NOT_FOUND");
        }
    }

    public void Dispose() => _connection?.Dispose();

    private void Get(string key)
    {
        var invokedAt = Stopwatch.GetTimestamp();
        CacheHistoryOutcome outcome;
        string? value = null;
        try
        {
            var got = Connection().Get("get", key);
            (outcome, value) = got is { } item ? (CacheHistoryOutcome.Hit, item.Data) : (CacheHistoryOutcome.Miss, null);
        }
        catch (MemcachedErrorException)
        {
            // An error line (SERVER_ERROR while the key's root cannot be reached): the connection stays in step.
            outcome = CacheHistoryOutcome.Unknown;
        }
        catch (Exception ex) when (ex is IOException or System.Net.Sockets.SocketException)
        {
            Disconnect();
            outcome = CacheHistoryOutcome.Unknown;
        }

        Record(key, CacheHistoryOperation.Get, value, outcome, invokedAt);
    }

    private void Write(string key, CacheHistoryOperation operation, string? value, string line, string? data, params string[] acknowledged)
    {
        var invokedAt = Stopwatch.GetTimestamp();
        string? reply;
        try
        {
            reply = Connection().Command(line, data);
        }
        catch (Exception ex) when (ex is IOException or System.Net.Sockets.SocketException)
        {
            Disconnect();
            reply = null;
        }

        Record(key, operation, value, reply is not null && acknowledged.Contains(reply) ? CacheHistoryOutcome.Acknowledged : CacheHistoryOutcome.Unknown, invokedAt);
    }

    private void Record(string key, CacheHistoryOperation operation, string? value, CacheHistoryOutcome outcome, long invokedAt)
    {
        var answered = outcome != CacheHistoryOutcome.Unknown;
        History.Add(new CacheHistoryEntry(id, key, operation, value, outcome, invokedAt, answered ? Stopwatch.GetTimestamp() : long.MaxValue));
        if (answered)
        {
            Answered++;
        }
    }

    private MemcachedTextClient Connection() => _connection ??= new MemcachedTextClient(port);

    /// <summary>Drops a connection that failed mid-command (a late answer would otherwise be read as the next command's).</summary>
    private void Disconnect()
    {
        _connection?.Dispose();
        _connection = null;
    }
}
