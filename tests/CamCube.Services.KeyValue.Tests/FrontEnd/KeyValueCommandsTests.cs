using CamCube.Memcached;
using CamCube.Runtime.Loops;
using CamCube.Services.KeyValue.FrontEnd;

namespace CamCube.Services.KeyValue.Tests.FrontEnd;

/// <summary>What the store's front-end asks of the store for one command, below the protocol.</summary>
public sealed class KeyValueCommandsTests
{
    /// <summary>
    /// A get asks for the item and for the last flush_all together, so when both store calls run
    /// out of time the client hears SERVER_ERROR after one call's time, not after two in a row.
    /// </summary>
    [Fact]
    public async Task AGetAsksForTheItemAndTheLastFlushAtOnceWhenTheFlushIsNotKnownYet()
    {
        var store = new FakeKeyValueStore { HoldReads = true };
        var commands = new KeyValueCommands(store, new KeyValueFrontEndOptions());

        var answer = commands.GetAsync(KeyValueCommands.KeyOf("counter"u8), expirationSeconds: null);

        Assert.Equal(2, store.HeldReadCount);
        store.FailHeldReads(KeyValueFailure.TimedOut);
        var reply = await answer;
        Assert.Equal(KeyValueReplyKind.Error, reply.Kind);
        Assert.Equal("SERVER_ERROR timeout: the key's servers did not answer the read in time\r\n"u8.ToArray(), reply.ErrorLine);
        Assert.Equal(0, store.HeldReadCount);
    }

    /// <summary>
    /// A get uses the last flush_all known here while it is younger than the check interval; once half
    /// the interval has passed, the next get starts reading it again in the background without waiting.
    /// </summary>
    [Fact]
    public async Task AGetStartsReadingTheFlushInTheBackgroundWithoutWaitingWhenHalfTheCheckIntervalHasPassed()
    {
        var time = new ManualTimeProvider();
        var store = new FakeKeyValueStore();
        var options = new KeyValueFrontEndOptions { Connections = new MemcachedFrontEndOptions { TimeProvider = time }, FlushCheckMilliseconds = 1000 };
        var commands = new KeyValueCommands(store, options);

        var first = commands.FlushToAwait();
        Assert.NotNull(first);
        await first;
        Assert.Null(commands.FlushToAwait());

        store.HoldReads = true;
        time.Advance(TimeSpan.FromMilliseconds(499));
        Assert.Null(commands.FlushToAwait());
        Assert.Equal(0, store.HeldReadCount);

        time.Advance(TimeSpan.FromMilliseconds(1));
        Assert.Null(commands.FlushToAwait());
        Assert.Equal(1, store.HeldReadCount);

        // Past the interval, a get waits for the read under way; no second read starts.
        time.Advance(TimeSpan.FromMilliseconds(500));
        var waited = commands.FlushToAwait();
        Assert.NotNull(waited);
        Assert.False(waited.IsCompleted);
        Assert.Equal(1, store.HeldReadCount);
    }
}
