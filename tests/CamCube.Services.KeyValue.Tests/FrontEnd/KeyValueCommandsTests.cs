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
}
