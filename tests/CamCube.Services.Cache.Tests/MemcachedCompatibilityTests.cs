using System.Text;

namespace CamCube.Services.Cache.Tests;

/// <summary>
/// The front-end against Debian's memcached 1.6, run side by side by the test: the same bytes go to
/// both, over fresh connections, and what comes back must be the same bytes, and both must close or
/// both stay open. Keys are fresh per test, so both servers start from the same (empty) state.
/// </summary>
[Collection(RealTimeGroup.Name)]
public class MemcachedCompatibilityTests(FrontEndCubeFixture cube, MemcachedProcess memcached) : IClassFixture<FrontEndCubeFixture>, IClassFixture<MemcachedProcess>
{
    [ToolFact("memcached", Package = "memcached")]
    public async Task GetLineOfTwentyThousandKeysIsAnsweredAsMemcachedAnswersIt()
    {
        var request = new StringBuilder();
        foreach (var hit in new[] { 0, 9_999, 19_999 })
        {
            request.Append(FormattableString.Invariant($"set compat:long:{hit} {hit} 0 2\r\nv{hit % 10}\r\n"));
        }

        request.Append("get");
        for (var i = 0; i < 20_000; i++)
        {
            request.Append(FormattableString.Invariant($" compat:long:{i}"));
        }

        request.Append("\r\nget compat:long:9999\r\n");
        var reply = await AnswersAsMemcachedAsync(RawExchange.Bytes(request.ToString()), halfClose: true);
        Assert.Equal(
            "STORED\r\nSTORED\r\nSTORED\r\nVALUE compat:long:0 0 2\r\nv0\r\nVALUE compat:long:9999 9999 2\r\nv9\r\nVALUE compat:long:19999 19999 2\r\nv9\r\nEND\r\nVALUE compat:long:9999 9999 2\r\nv9\r\nEND\r\n",
            reply);
    }

    [ToolFact("memcached", Package = "memcached")]
    public async Task GetsOfManyKeysAcrossTheLineBufferAreAnsweredAsMemcachedAnswersThem()
    {
        // Keys cut by the front-end's 4 KiB line buffer and 128-key batches at every offset, among hits and a gat.
        var request = new StringBuilder("set compat:many:7 1 0 1\r\na\r\nset compat:many:300 2 0 1\r\nb\r\n");
        foreach (var count in new[] { 127, 128, 129, 300, 1_000 })
        {
            request.Append("get");
            for (var i = 0; i < count; i++)
            {
                request.Append(FormattableString.Invariant($" compat:many:{i}"));
            }

            request.Append("   \r\n");
        }

        request.Append("gat 0");
        for (var i = 0; i < 400; i++)
        {
            request.Append(FormattableString.Invariant($" compat:many:{i}"));
        }

        request.Append("\r\n");
        var reply = await AnswersAsMemcachedAsync(RawExchange.Bytes(request.ToString()), halfClose: true);
        Assert.Equal(6, reply.Split("END\r\n").Length - 1);
    }

    [ToolFact("memcached", Package = "memcached")]
    public async Task HttpRequestLinesCloseTheConnectionWithoutAReplyAsInMemcached()
    {
        foreach (var http in new[] { "GET / HTTP/1.1\r\nHost: cache\r\n\r\n", "POST /items HTTP/1.0\r\nContent-Length: 0\r\n\r\n", "HEAD / HTTP/1.1\r\n" })
        {
            // The get before it is answered; nothing after it is.
            var reply = await AnswersAsMemcachedAsync(RawExchange.Bytes("get compat:http:none\r\n" + http + "get compat:http:none\r\n"), halfClose: false);
            Assert.Equal("END\r\n", reply);
        }

        // Without HTTP/ at its end a line is an unknown command, and a lower-case get is a get.
        Assert.Equal("ERROR\r\nEND\r\n", await AnswersAsMemcachedAsync(RawExchange.Bytes("GET /\r\nget / HTTP/1.1\r\n"), halfClose: true));
    }

    [ToolFact("memcached", Package = "memcached")]
    public async Task NoReplySilencesTheErrorsOfMalformedCommandsAsInMemcached()
    {
        var longKey = new string('k', 251);
        var request = string.Join(
            "\r\n",
            "set compat:nr:a 0 0 x noreply",
            "x",
            "set compat:nr:a 0 0 noreply",
            "set compat:nr:a 0 0 1 noreply",
            "abc",
            "incr compat:nr:a abc noreply",
            "incr compat:nr:a noreply",
            $"decr {longKey} 1 noreply",
            "touch compat:nr:a abc noreply",
            "touch compat:nr:a noreply",
            "delete compat:nr:a 1 noreply",
            "delete compat:nr:a 0 1 noreply",
            "verbosity x noreply",
            "bogus noreply",
            "set compat:nr:a noreply",
            "get compat:nr:a noreply",
            "set compat:nr:b 0 0 1 noreply",
            "b",
            "incr compat:nr:b 1 noreply",
            "set compat:nr:c 3 0 1 extra",
            "c",
            "touch compat:nr:c 0 extra",
            "incr compat:nr:c 1 extra",
            "delete compat:nr:c 0",
            "get compat:nr:a compat:nr:b compat:nr:c",
            "gat abc compat:nr:b",
            "gat 0",
            "gat",
            "get",
            "verbosity",
            "");
        var reply = await AnswersAsMemcachedAsync(RawExchange.Bytes(request), halfClose: true);
        Assert.StartsWith("ERROR\r\nERROR\r\nERROR\r\nERROR\r\nERROR\r\n", reply, StringComparison.Ordinal);
    }

    [ToolFact("memcached", Package = "memcached")]
    public async Task LongLineThatIsNoGetClosesTheConnectionWithoutAReplyAsInMemcached()
    {
        var reply = await AnswersAsMemcachedAsync(RawExchange.Bytes("set compat:junk 0 0 1 " + new string('x', 5_000)), halfClose: false);
        Assert.Equal("", reply);
    }

    [ToolFact("memcached", Package = "memcached")]
    public async Task BinaryRequestIsAnsweredAsMemcachedAnswersAnUnknownBinaryCommand()
    {
        byte[] unknown = [0x80, 0xFE, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 0, 0, 0, 0, 0, 0, 0, 0];
        var reply = await AnswersAsMemcachedAsync(unknown, halfClose: true);
        Assert.Equal("\x81\xFE\0\0\0\0\0\x81\0\0\0\x0F\x01\x02\x03\x04\0\0\0\0\0\0\0\0Unknown command", reply);
    }

    /// <summary>
    /// The one place the front-end answers otherwise, on purpose (docs/decisions.md): a store line
    /// refused for its key, flags, expiry or cas unique whose length is readable has its block
    /// skipped, where memcached runs the block as a command line of its own, here a delete.
    /// </summary>
    [ToolFact("memcached", Package = "memcached")]
    public async Task RefusedStoreLineHasItsBlockSkippedWhereMemcachedRunsItAsACommand()
    {
        var longKey = new string('k', 251);
        var request = RawExchange.Bytes(string.Join(
            "\r\n",
            "set compat:skip 0 0 4",
            "kept",
            "set compat:skip abc 0 18",
            "delete compat:skip",
            $"set {longKey} 0 0 18 noreply",
            "delete compat:skip",
            "cas compat:skip 0 0 18 x",
            "delete compat:skip",
            "get compat:skip",
            ""));
        var memcachedReply = (await RawExchange.SendAsync(memcached.EndPoint, request, halfClose: true)).Reply;
        var reply = (await RawExchange.SendAsync(cube.First.LocalEndPoint, request, halfClose: true)).Reply;

        const string refused = "CLIENT_ERROR bad command line format\r\n";
        Assert.Equal($"STORED\r\n{refused}DELETED\r\nNOT_FOUND\r\n{refused}NOT_FOUND\r\nEND\r\n", memcachedReply);
        Assert.Equal($"STORED\r\n{refused}{refused}VALUE compat:skip 0 4\r\nkept\r\nEND\r\n", reply);
    }

    /// <summary>Sends <paramref name="request"/> to memcached and to the front-end; asserts the same bytes and the same close, and returns the reply.</summary>
    private async Task<string> AnswersAsMemcachedAsync(byte[] request, bool halfClose)
    {
        var expected = await RawExchange.SendAsync(memcached.EndPoint, request, halfClose);
        var actual = await RawExchange.SendAsync(cube.First.LocalEndPoint, request, halfClose);
        Assert.Equal(expected.Reply, actual.Reply);
        Assert.Equal(expected.Closed, actual.Closed);
        return actual.Reply;
    }
}
