using System.Diagnostics;
using System.Globalization;
using CamCube.Testing.Linearizability;

namespace CamCube.Integration.Tests;

/// <summary>
/// One client of a register history on the store's memcached front-end: it reads the key with
/// <c>gets</c>, writes it with <c>set</c>, and swaps it with <c>cas</c> on the unique of its last
/// read (<c>add</c> when it read nothing), one command at a time, and records each operation with
/// when it was sent and answered on the host's monotonic clock. Every value it writes is unique, so
/// a swap on the unique read is a swap on the value read (<see cref="RegisterSpecification"/>).
/// A write answered with anything but STORED, EXISTS, NOT_STORED or NOT_FOUND (an error line, a
/// closed connection, no answer) may or may not have taken effect: it is recorded as never answered.
/// A read that fails changed nothing and is left out.
/// </summary>
internal sealed class MemcachedRegisterClient(int id, int port, string key, Random random) : IDisposable
{
    private MemcachedTextClient? _connection;
    private (int Value, string Unique)? _lastRead;
    private int _written;

    /// <summary>Gets the operations this client finished or gave up on, in the order it issued them.</summary>
    public List<HistoryOperation<RegisterInput, RegisterOutput>> History { get; } = [];

    /// <summary>Gets how many operations were answered.</summary>
    public int Answered { get; private set; }

    /// <summary>Runs one random operation: 40% reads, 30% writes, 30% compare-and-swaps.</summary>
    public void RunOne()
    {
        var roll = random.Next(10);
        if (roll < 4)
        {
            Read();
        }
        else if (roll < 7)
        {
            Write();
        }
        else
        {
            CompareAndSwap();
        }
    }

    public void Dispose() => _connection?.Dispose();

    private void Read()
    {
        var invokedAt = Stopwatch.GetTimestamp();
        (string Header, string Data)? got;
        try
        {
            got = Connection().Get("gets", key);
        }
        catch (MemcachedErrorException)
        {
            // An error line (the store could not serve the read in time): the connection stays in step.
            return;
        }
        catch (Exception ex) when (ex is IOException or System.Net.Sockets.SocketException)
        {
            Disconnect();
            return;
        }

        var returnedAt = Stopwatch.GetTimestamp();
        int? value = null;
        if (got is { } item)
        {
            // VALUE <key> <flags> <bytes> <cas unique>
            value = int.Parse(item.Data, CultureInfo.InvariantCulture);
            _lastRead = (value.Value, item.Header.Split(' ')[4]);
        }
        else
        {
            _lastRead = null;
        }

        Record(new RegisterInput(RegisterOperation.Read), new RegisterOutput(value, Swapped: false), invokedAt, returnedAt, completed: true);
    }

    private void Write()
    {
        var value = NextValue();
        var invokedAt = Stopwatch.GetTimestamp();
        var reply = Send($"set {key} 0 0 {value.Length}", value);
        Record(new RegisterInput(RegisterOperation.Write, int.Parse(value, CultureInfo.InvariantCulture)), new RegisterOutput(null, Swapped: false), invokedAt, Stopwatch.GetTimestamp(), completed: reply == "STORED");
    }

    private void CompareAndSwap()
    {
        var value = NextValue();
        var expected = _lastRead;
        var invokedAt = Stopwatch.GetTimestamp();
        var reply = expected is { } read
            ? Send($"cas {key} 0 0 {value.Length} {read.Unique}", value)
            : Send($"add {key} 0 0 {value.Length}", value);
        var returnedAt = Stopwatch.GetTimestamp();
        var known = reply is "STORED" or "EXISTS" or "NOT_FOUND" or "NOT_STORED";
        var input = new RegisterInput(RegisterOperation.CompareAndSwap, int.Parse(value, CultureInfo.InvariantCulture), expected?.Value);
        Record(input, new RegisterOutput(null, Swapped: reply == "STORED"), invokedAt, returnedAt, completed: known);
    }

    private string NextValue() => ((id * 1_000_000) + ++_written).ToString(CultureInfo.InvariantCulture);

    /// <summary>Sends a write; null when no answer came back (the connection is then opened anew).</summary>
    private string? Send(string line, string data)
    {
        try
        {
            return Connection().Command(line, data);
        }
        catch (Exception ex) when (ex is IOException or System.Net.Sockets.SocketException)
        {
            Disconnect();
            return null;
        }
    }

    private void Record(RegisterInput input, RegisterOutput output, long invokedAt, long returnedAt, bool completed)
    {
        History.Add(new HistoryOperation<RegisterInput, RegisterOutput>(id, input, output, invokedAt, returnedAt, completed));
        if (completed)
        {
            Answered++;
        }
    }

    private MemcachedTextClient Connection() => _connection ??= new MemcachedTextClient(port);

    /// <summary>Drops a connection that failed mid-command (its answer may still come and would be read as the next one's).</summary>
    private void Disconnect()
    {
        _connection?.Dispose();
        _connection = null;
    }
}
