using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Text;
using System.Text.RegularExpressions;
using CamCube.Memcached;
using CamCube.Runtime.Loops;
using CamCube.Services.KeyValue.FrontEnd;
using CamCube.Testing;
using Microsoft.Extensions.Logging.Abstractions;

namespace CamCube.Services.KeyValue.Tests.FrontEnd;

/// <summary>
/// The store's memcached front-end over real TCP, in front of a fake store (the integration tests
/// run it in front of the replicated store): what each command does to the store, flags, versions
/// as cas uniques, expiry, flush_all, and bad input.
/// </summary>
#pragma warning disable CA1001 // xUnit disposes the front-end through IAsyncLifetime.
public sealed class KeyValueFrontEndTests : IAsyncLifetime
#pragma warning restore CA1001
{
    private readonly FakeKeyValueStore _store = new();
    private readonly ManualTimeProvider _time = new();
    private KeyValueFrontEnd _frontEnd = null!;
    private TextClient _client = null!;

    public async Task InitializeAsync()
    {
        var options = new KeyValueFrontEndOptions
        {
            Connections = new MemcachedFrontEndOptions { EndPoint = new IPEndPoint(IPAddress.Loopback, 0), TimeProvider = _time },
            ItemSizeMaxBytes = 1000,
        };
        _frontEnd = new KeyValueFrontEnd(_store, options, NullLogger.Instance);
        await _frontEnd.StartAsync();
        _client = await TextClient.ConnectAsync(_frontEnd.LocalEndPoint);
    }

    public async Task DisposeAsync()
    {
        await _client.DisposeAsync();
        await _frontEnd.DisposeAsync();
    }

    [Fact]
    public async Task GetsReturnsTheFlagsAndTheStoresVersionAsCasUniqueWhenSet()
    {
        Assert.Equal("STORED\r\n", await _client.AskAsync("set greeting 4294967295 0 5\r\nhello\r\n"));

        var stored = _store[Key.Hash("greeting"u8)]!;
        Assert.Equal($"VALUE greeting 4294967295 5 {stored.Version}\r\nhello\r\nEND\r\n", await _client.AskAsync("gets greeting\r\n", "END\r\n"));
        Assert.Equal("VALUE greeting 4294967295 5\r\nhello\r\nEND\r\n", await _client.AskAsync("get greeting\r\n", "END\r\n"));
    }

    [Fact]
    public async Task TheStoreHoldsTheHeaderAndDataUnderTheKeysSha1WhenSet()
    {
        await _client.AskAsync("set k 7 0 3\r\nabc\r\n");

        // memId = objId: the same key bytes hash to the same 160-bit key as the cache's.
        var stored = _store[Key.Hash("k"u8)]!;
        Assert.Equal(MemcachedItem.HeaderBytes + 3, stored.Value.Length);
        var item = MemcachedItem.Decode(stored.Value);
        Assert.Equal((7u, 0L, _time.GetUtcNow().UtcTicks, "abc"), (item.Flags, item.ExpiresAtUnixMilliseconds, item.WrittenAtTicks, Encoding.ASCII.GetString(item.Data.Span)));
    }

    [Fact]
    public async Task CasStoresOnlyOnTheVersionTheKeyHoldsWhenCompared()
    {
        Assert.Equal("NOT_FOUND\r\n", await _client.AskAsync("cas c 0 0 1 5\r\nx\r\n"));
        await _client.AskAsync("set c 0 0 1\r\na\r\n");
        var version = _store[Key.Hash("c"u8)]!.Version;

        Assert.Equal("EXISTS\r\n", await _client.AskAsync($"cas c 0 0 1 {version + 1}\r\nb\r\n"));
        Assert.Equal("EXISTS\r\n", await _client.AskAsync("cas c 0 0 1 0\r\nb\r\n"));
        Assert.Equal("STORED\r\n", await _client.AskAsync($"cas c 3 0 1 {version}\r\nc\r\n"));
        Assert.Equal("EXISTS\r\n", await _client.AskAsync($"cas c 0 0 1 {version}\r\nd\r\n"));
        Assert.Equal($"VALUE c 3 1 {_store[Key.Hash("c"u8)]!.Version}\r\nc\r\nEND\r\n", await _client.AskAsync("gets c\r\n", "END\r\n"));
    }

    [Fact]
    public async Task AddAndReplaceStoreOnlyWhenTheKeyIsAbsentAndPresentRespectively()
    {
        Assert.Equal("NOT_STORED\r\n", await _client.AskAsync("replace r 0 0 1\r\na\r\n"));
        Assert.Equal("STORED\r\n", await _client.AskAsync("add r 1 0 1\r\nb\r\n"));
        Assert.Equal("NOT_STORED\r\n", await _client.AskAsync("add r 2 0 1\r\nc\r\n"));
        Assert.Equal("STORED\r\n", await _client.AskAsync("replace r 4 0 1\r\nd\r\n"));
        Assert.Equal("VALUE r 4 1\r\nd\r\nEND\r\n", await _client.AskAsync("get r\r\n", "END\r\n"));
    }

    [Fact]
    public async Task AppendPrependIncrAndDecrRewriteTheItemKeepingItsFlagsWhenItExists()
    {
        Assert.Equal("NOT_STORED\r\n", await _client.AskAsync("append a 0 0 1\r\nx\r\n"));
        Assert.Equal("NOT_FOUND\r\n", await _client.AskAsync("incr n 1\r\n"));
        await _client.AskAsync("set a 9 0 2\r\nbc\r\n");
        await _client.AskAsync("append a 0 0 1\r\nd\r\n");
        await _client.AskAsync("prepend a 0 0 1\r\na\r\n");
        Assert.Equal("VALUE a 9 4\r\nabcd\r\nEND\r\n", await _client.AskAsync("get a\r\n", "END\r\n"));

        await _client.AskAsync("set n 5 0 2\r\n10\r\n");
        Assert.Equal("15\r\n", await _client.AskAsync("incr n 5\r\n"));
        Assert.Equal("0\r\n", await _client.AskAsync("decr n 20\r\n"));
        Assert.Equal("18446744073709551615\r\n", await _client.AskAsync("incr n 18446744073709551615\r\n"));
        Assert.Equal("CLIENT_ERROR cannot increment or decrement non-numeric value\r\n", await _client.AskAsync("incr a 1\r\n"));
        Assert.Equal("VALUE n 5 20\r\n18446744073709551615\r\nEND\r\n", await _client.AskAsync("get n\r\n", "END\r\n"));
    }

    [Fact]
    public async Task DeleteRemovesTheKeyFromTheStoreWhenPresent()
    {
        await _client.AskAsync("set d 0 0 1\r\nx\r\n");
        Assert.Equal("DELETED\r\n", await _client.AskAsync("delete d\r\n"));
        Assert.Null(_store[Key.Hash("d"u8)]);
        Assert.Equal("NOT_FOUND\r\n", await _client.AskAsync("delete d\r\n"));
        Assert.Equal("END\r\n", await _client.AskAsync("get d\r\n", "END\r\n"));
    }

    [Fact]
    public async Task AnItemReadsAsAbsentOnceItsExpiryPassesOrTouchMovesIt()
    {
        await _client.AskAsync("set e 0 10 1\r\nx\r\n");
        await _client.AskAsync("set f 0 10 1\r\ny\r\n");
        Assert.Equal("TOUCHED\r\n", await _client.AskAsync("touch f 100\r\n"));
        _time.Advance(TimeSpan.FromSeconds(10));

        Assert.Equal("VALUE f 0 1\r\ny\r\nEND\r\n", await _client.AskAsync("get e f\r\n", "END\r\n"));
        Assert.Equal("NOT_FOUND\r\n", await _client.AskAsync("touch e 100\r\n"));

        // add takes the place of an expired item still on disk.
        Assert.Equal("STORED\r\n", await _client.AskAsync("add e 0 0 1\r\nz\r\n"));
        Assert.Equal("VALUE e 0 1\r\nz\r\nEND\r\n", await _client.AskAsync("get e\r\n", "END\r\n"));
    }

    [Fact]
    public async Task CasAndDeleteAnswerNotFoundAndKeepTheStoredItemWhenItHasExpired()
    {
        await _client.AskAsync("set x 0 10 1\r\na\r\n");
        var stored = _store[Key.Hash("x"u8)]!;
        _time.Advance(TimeSpan.FromSeconds(10));

        Assert.Equal("NOT_FOUND\r\n", await _client.AskAsync($"cas x 0 0 1 {stored.Version}\r\nb\r\n"));
        Assert.Equal("NOT_FOUND\r\n", await _client.AskAsync("delete x\r\n"));
        Assert.Equal(stored.Version, _store[Key.Hash("x"u8)]!.Version);
        Assert.Equal("END\r\n", await _client.AskAsync("gets x\r\n", "END\r\n"));
    }

    [Fact]
    public async Task FlushAllHidesTheItemsWrittenBeforeItButNotThoseWrittenAfter()
    {
        await _client.AskAsync("set old 0 0 1\r\no\r\n");
        _time.Advance(TimeSpan.FromMilliseconds(1));
        Assert.Equal("OK\r\n", await _client.AskAsync("flush_all\r\n"));
        _time.Advance(TimeSpan.FromMilliseconds(1));
        await _client.AskAsync("set new 0 0 1\r\nn\r\n");

        Assert.Equal("VALUE new 0 1\r\nn\r\nEND\r\n", await _client.AskAsync("get old new\r\n", "END\r\n"));
        Assert.NotNull(_store[Key.Hash("old"u8)]);
    }

    [Fact]
    public async Task GetsOfSeveralKeysReadThroughTheConnectionsReusableReadsInOrderWhenTheStoreHasThem()
    {
        await _client.AskAsync("set a 1 0 1\r\nx\r\n");
        await _client.AskAsync("set c 3 0 2\r\nzz\r\n");
        var versionA = _store[Key.Hash("a"u8)]!.Version;
        var versionC = _store[Key.Hash("c"u8)]!.Version;

        Assert.Equal($"VALUE a 1 1 {versionA}\r\nx\r\nVALUE c 3 2 {versionC}\r\nzz\r\nEND\r\n", await _client.AskAsync("gets a b c\r\n", "END\r\n"));
        Assert.Equal("VALUE c 3 2\r\nzz\r\nEND\r\n", await _client.AskAsync("get c\r\n", "END\r\n"));

        // Each key of each get took one reusable read, the flush_all mark none (it was read once, at the first get).
        Assert.Equal(4, _store.ReusableGets);
    }

    [Fact]
    public async Task SetsWriteThroughTheConnectionsReusableWriteAndOneOverTheStoresLimitNeverReachesItWhenTheStoreHasThem()
    {
        Assert.Equal("STORED\r\n", await _client.AskAsync("set a 5 0 1\r\nx\r\n"));
        Assert.Equal("STORED\r\n", await _client.AskAsync("set a 6 0 2\r\nyy\r\n"));
        Assert.Equal("STORED\r\n", await _client.AskAsync("add b 0 0 1\r\nz\r\n"));
        Assert.Equal("VALUE a 6 2\r\nyy\r\nEND\r\n", await _client.AskAsync("get a\r\n", "END\r\n"));
        Assert.Equal(2, _store.ReusableSets);

        // Within the front-end's item limit (1000) but over the store's own: refused before the store is asked.
        _store.ValueBytesMax = 100;
        Assert.Equal("SERVER_ERROR object too large for cache\r\n", await _client.AskAsync($"set a 0 0 200\r\n{new string('v', 200)}\r\n"));
        Assert.Equal(2, _store.ReusableSets);
        Assert.Equal("VALUE a 6 2\r\nyy\r\nEND\r\n", await _client.AskAsync("get a\r\n", "END\r\n"));

        // noreply: no answer, and the next command's answer is the next line.
        await _client.SendAsync("set a 7 0 1 noreply\r\nq\r\n");
        Assert.Equal("VALUE a 7 1\r\nq\r\nEND\r\n", await _client.AskAsync("get a\r\n", "END\r\n"));
        Assert.Equal(3, _store.ReusableSets);
    }

    [Fact]
    public async Task BadCommandsGetOneLineErrorsAndTheConnectionAndItsDataSurviveWhenMalformed()
    {
        await _client.AskAsync("set kept 0 0 4\r\nkept\r\n");

        Assert.Equal("ERROR\r\n", await _client.AskAsync("bogus command\r\n"));
        Assert.Equal("CLIENT_ERROR bad command line format\r\n", await _client.AskAsync("set kept 0 0 many\r\n"));
        // As memcached: the block's 2 bytes and a bad terminator, then the line left over, empty.
        Assert.Equal("CLIENT_ERROR bad data chunk\r\nERROR\r\n", await _client.AskAsync("set kept 0 0 2\r\nabcd\r\n", "ERROR\r\n"));
        Assert.Equal("ERROR\r\n", await _client.AskAsync("get\r\n"));
        Assert.Equal("CLIENT_ERROR bad command line format\r\n", await _client.AskAsync($"get {new string('k', 251)}\r\n"));
        Assert.Equal("SERVER_ERROR object too large for cache\r\n", await _client.AskAsync($"set kept 0 0 1001\r\n{new string('v', 1001)}\r\n"));

        Assert.Equal("VALUE kept 0 4\r\nkept\r\nEND\r\n", await _client.AskAsync("get kept\r\n", "END\r\n"));
    }

    [Fact]
    public async Task BadCasUniquesLengthsAndLongKeysGetOneLineErrorsAndWriteNothingWhenMalformed()
    {
        await _client.AskAsync("set kept 0 0 4\r\nkept\r\n");
        var kept = _store[Key.Hash("kept"u8)]!;
        var longKey = new string('k', 251);

        // The line is refused and, its length being readable, its block is skipped (memcached would
        // run the block as a command line: here "delete kept"), so the next reply is the get's.
        Assert.Equal("CLIENT_ERROR bad command line format\r\n", await _client.AskAsync("cas kept 0 0 11 abc\r\ndelete kept\r\n"));
        Assert.Equal("CLIENT_ERROR bad command line format\r\n", await _client.AskAsync("cas kept 0 0 11 -1\r\ndelete kept\r\n"));
        Assert.Equal("CLIENT_ERROR bad command line format\r\n", await _client.AskAsync($"set {longKey} 0 0 11\r\ndelete kept\r\n"));
        Assert.Equal("CLIENT_ERROR bad command line format\r\n", await _client.AskAsync($"set kept x 0 11\r\ndelete kept\r\n"));

        // No length to skip by: as memcached, the block sent after it is read as a command line of its own.
        Assert.Equal("CLIENT_ERROR bad command line format\r\nERROR\r\n", await _client.AskAsync("set kept 0 0 -1\r\nx\r\n", "ERROR\r\n"));
        Assert.Equal("CLIENT_ERROR bad command line format\r\n", await _client.AskAsync("cas kept 0 0 -1 1\r\n"));
        Assert.Equal("CLIENT_ERROR bad command line format\r\n", await _client.AskAsync($"delete {longKey}\r\n"));

        Assert.Equal($"VALUE kept 0 4 {kept.Version}\r\nkept\r\nEND\r\n", await _client.AskAsync("gets kept\r\n", "END\r\n"));
        await AssertTheStoreTookNoWriteSinceAsync(kept);
    }

    [Fact]
    public async Task FailingDeletesAndCasesWithNoreplyAnswerNothingAndChangeNothing()
    {
        await _client.AskAsync("set kept 0 0 4\r\nkept\r\n");
        var kept = _store[Key.Hash("kept"u8)]!;

        // As memcached 1.6: no reply at all, so the next command's answer is the next line.
        await _client.SendAsync("delete absent noreply\r\n");
        await _client.SendAsync($"cas kept 0 0 1 {kept.Version + 1} noreply\r\nx\r\n");
        await _client.SendAsync("cas absent 0 0 1 1 noreply\r\ny\r\n");
        Assert.Equal($"VALUE kept 0 4 {kept.Version}\r\nkept\r\nEND\r\n", await _client.AskAsync("gets kept absent\r\n", "END\r\n"));

        Assert.Null(_store[Key.Hash("absent"u8)]);
        await AssertTheStoreTookNoWriteSinceAsync(kept);
    }

    [Fact]
    public async Task AStoreThatCannotAnswerGivesAServerErrorLineAndTheConnectionGoesOn()
    {
        _store.Failure = KeyValueFailure.Unavailable;
        Assert.Equal("SERVER_ERROR unavailable: the key's servers cannot be reached\r\n", await _client.AskAsync("set s 0 0 1\r\nx\r\n"));
        _store.Failure = KeyValueFailure.TimedOut;
        Assert.Equal("SERVER_ERROR timeout: the key's servers did not answer the read in time\r\n", await _client.AskAsync("get s\r\n"));
        Assert.Equal("SERVER_ERROR timeout: the write may or may not have taken effect\r\n", await _client.AskAsync("set s 0 0 1\r\nx\r\n"));

        _store.Failure = null;
        Assert.Equal("STORED\r\n", await _client.AskAsync("set s 0 0 1\r\nx\r\n"));
    }

    [Fact]
    public async Task StatsCountTheCommandsAndEndWhenAsked()
    {
        await _client.AskAsync("set s 0 0 1\r\nx\r\n");
        await _client.AskAsync("get s t\r\n", "END\r\n");

        var stats = await _client.AskAsync("stats\r\n", "END\r\n");

        Assert.Contains("STAT cmd_set 1\r\n", stats, StringComparison.Ordinal);
        Assert.Contains("STAT cmd_get 2\r\nSTAT", stats, StringComparison.Ordinal);
        Assert.Contains("STAT get_hits 1\r\nSTAT get_misses 1\r\n", stats, StringComparison.Ordinal);
    }

    [Fact]
    public async Task MemcapablePassesEveryAsciiTestWhenRunAgainstTheFrontEnd()
    {
        var tool = new[] { "/usr/bin/memccapable", "/usr/bin/memcapable" }.FirstOrDefault(File.Exists);
        Assert.True(tool is not null, "memccapable is missing: install Debian's libmemcached-tools (.ci/run does)");
        using var process = Process.Start(new ProcessStartInfo(tool!, ["-a", "-t", "10", "-h", "127.0.0.1", "-p", _frontEnd.LocalEndPoint.Port.ToString(CultureInfo.InvariantCulture)])
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        })!;
        var output = process.StandardOutput.ReadToEndAsync();
        var errors = await process.StandardError.ReadToEndAsync();
        await process.WaitForExitAsync();
        var all = await output + errors;

        // memcapable marks each test [pass], [skip] or [FAIL]; its ASCII suite has 27.
        Assert.True(process.ExitCode == 0, all);
        Assert.Equal(27, Regex.Count(all, @"^ascii .*\[pass\]$", RegexOptions.Multiline | RegexOptions.CultureInvariant));
    }

    /// <summary>
    /// Asserts that <paramref name="kept"/> is still held as it was and that the store took no write
    /// since it: the fake numbers the writes of every key from one counter, so the next set gets the
    /// version after it.
    /// </summary>
    private async Task AssertTheStoreTookNoWriteSinceAsync(VersionedValue kept)
    {
        var held = _store[Key.Hash("kept"u8)]!;
        Assert.Equal(kept.Version, held.Version);
        Assert.Equal(kept.Value.ToArray(), held.Value.ToArray());
        Assert.Equal("STORED\r\n", await _client.AskAsync("set probe 0 0 1\r\np\r\n"));
        Assert.Equal(kept.Version + 1, _store[Key.Hash("probe"u8)]!.Version);
    }
}
