using System.Globalization;
using System.Text;
using CamCube.Testing;

namespace CamCube.Services.Cache.Tests;

[Collection(RealTimeGroup.Name)]
public class MemcachedFrontEndTests(FrontEndCubeFixture cube) : IClassFixture<FrontEndCubeFixture>
{
    [Fact]
    public async Task SetOnOneFrontEndIsReadDeletedAndCasCheckedOnAnother()
    {
        await using var a = await TextClient.ConnectAsync(cube.First.LocalEndPoint);
        await using var b = await TextClient.ConnectAsync(cube.Second.LocalEndPoint);
        Assert.Equal("STORED\r\n", await a.AskAsync("set fe:k1 5 0 5\r\nhello\r\n"));
        Assert.Equal("VALUE fe:k1 5 5\r\nhello\r\nEND\r\n", await b.AskAsync("get fe:k1\r\n", "END\r\n"));

        var gets = await b.AskAsync("gets fe:k1\r\n", "END\r\n");
        var cas = ulong.Parse(gets.Split("\r\n")[0].Split(' ')[4], System.Globalization.CultureInfo.InvariantCulture);
        Assert.Equal("EXISTS\r\n", await a.AskAsync($"cas fe:k1 0 0 1 {cas + 1}\r\nx\r\n"));
        Assert.Equal("STORED\r\n", await a.AskAsync($"cas fe:k1 0 0 1 {cas}\r\ny\r\n"));
        Assert.Equal("VALUE fe:k1 0 1\r\ny\r\nEND\r\n", await b.AskAsync("get fe:k1\r\n", "END\r\n"));
        Assert.Equal("DELETED\r\n", await b.AskAsync("delete fe:k1\r\n"));
        Assert.Equal("END\r\n", await a.AskAsync("get fe:k1\r\n", "END\r\n"));
        Assert.Equal("NOT_FOUND\r\n", await a.AskAsync("delete fe:k1\r\n"));
    }

    [Fact]
    public async Task EveryCommandAnswersAsMemcachedDoes()
    {
        await using var c = await TextClient.ConnectAsync(cube.First.LocalEndPoint);
        Assert.Equal("NOT_STORED\r\n", await c.AskAsync("replace fe:c 0 0 1\r\na\r\n"));
        Assert.Equal("STORED\r\n", await c.AskAsync("add fe:c 0 0 1\r\nb\r\n"));
        Assert.Equal("NOT_STORED\r\n", await c.AskAsync("add fe:c 0 0 1\r\nc\r\n"));
        Assert.Equal("STORED\r\n", await c.AskAsync("append fe:c 0 0 2\r\n_z\r\n"));
        Assert.Equal("STORED\r\n", await c.AskAsync("prepend fe:c 0 0 2\r\na_\r\n"));
        Assert.Equal("VALUE fe:c 0 5\r\na_b_z\r\nEND\r\n", await c.AskAsync("get fe:c\r\n", "END\r\n"));
        Assert.Equal("STORED\r\n", await c.AskAsync("set fe:n 0 0 2\r\n10\r\n"));
        Assert.Equal("15\r\n", await c.AskAsync("incr fe:n 5\r\n"));
        Assert.Equal("0\r\n", await c.AskAsync("decr fe:n 100\r\n"));
        Assert.Equal("NOT_FOUND\r\n", await c.AskAsync("incr fe:none 1\r\n"));
        Assert.Equal("CLIENT_ERROR cannot increment or decrement non-numeric value\r\n", await c.AskAsync("incr fe:c 1\r\n"));
        Assert.Equal("CLIENT_ERROR invalid numeric delta argument\r\n", await c.AskAsync("incr fe:n abc\r\n"));
        Assert.Equal("TOUCHED\r\n", await c.AskAsync("touch fe:c 100\r\n"));
        Assert.Equal("NOT_FOUND\r\n", await c.AskAsync("touch fe:none 100\r\n"));
        Assert.Equal("VALUE fe:c 0 5\r\na_b_z\r\nEND\r\n", await c.AskAsync("gat 100 fe:c fe:none\r\n", "END\r\n"));
        Assert.StartsWith("VALUE fe:c 0 5 ", await c.AskAsync("gats 100 fe:c\r\n", "END\r\n"), StringComparison.Ordinal);
        Assert.StartsWith("VERSION ", await c.AskAsync("version\r\n"), StringComparison.Ordinal);
        Assert.Equal("OK\r\n", await c.AskAsync("verbosity 1\r\n"));
        Assert.Contains("STAT curr_items ", await c.AskAsync("stats\r\n", "END\r\n"), StringComparison.Ordinal);
        Assert.Equal("STORED\r\n", await c.AskAsync("set fe:gone 0 -1 1\r\nx\r\n"));
        Assert.Equal("END\r\n", await c.AskAsync("get fe:gone\r\n", "END\r\n"));
    }

    [Fact]
    public async Task NoReplySuppressesRepliesButTheCommandsTakeEffect()
    {
        await using var c = await TextClient.ConnectAsync(cube.First.LocalEndPoint);
        await c.SendAsync("set fe:q 0 0 1 noreply\r\n1\r\nincr fe:q 4 noreply\r\nappend fe:q 0 0 1 noreply\r\n!\r\ntouch fe:q 0 noreply\r\ndelete fe:nothing noreply\r\n");
        Assert.Equal("VALUE fe:q 0 2\r\n5!\r\nEND\r\n", await c.AskAsync("get fe:q\r\n", "END\r\n"));
        await c.SendAsync("delete fe:q noreply\r\n");
        Assert.Equal("END\r\n", await c.AskAsync("get fe:q\r\n", "END\r\n"));
    }

    [Fact]
    public async Task BadInputGetsTheProtocolsErrorsAndTheConnectionSurvives()
    {
        await using var c = await TextClient.ConnectAsync(cube.First.LocalEndPoint);
        Assert.Equal("ERROR\r\n", await c.AskAsync("bogus command\r\n"));
        Assert.Equal("ERROR\r\n", await c.AskAsync("\r\n"));
        Assert.Equal("CLIENT_ERROR bad command line format\r\n", await c.AskAsync("set fe:x abc 0 1\r\n"));

        // Its block is skipped (docs/decisions.md), so the line after it is the next command.
        await c.SendAsync("x\r\n");
        Assert.Equal("END\r\n", await c.AskAsync("get fe:x\r\n", "END\r\n"));
        Assert.Equal("CLIENT_ERROR bad command line format\r\n", await c.AskAsync($"get {new string('k', 251)}\r\n"));
        Assert.Equal("CLIENT_ERROR bad data chunk\r\n", await c.AskAsync("set fe:x 0 0 3\r\nabcde\r\n"));

        // As in memcached, the bytes after the declared length and its two terminator bytes are the next (empty) command.
        Assert.Equal("ERROR\r\n", await c.ReadUntilAsync("\r\n"));
        Assert.Equal("SERVER_ERROR object too large for cache\r\n", await c.AskAsync($"set fe:x 0 0 {(1024 * 1024) + 1}\r\n"));
        await c.SendAsync(new byte[(1024 * 1024) + 1]);
        await c.SendAsync("\r\n");
        Assert.Equal("STORED\r\n", await c.AskAsync("set fe:x 0 0 2\r\nok\r\n"));
        Assert.Equal("VALUE fe:x 0 2\r\nok\r\nEND\r\n", await c.AskAsync("get fe:x\r\n", "END\r\n"));
    }

    [Fact]
    public async Task BinaryJunkAndAMidValueDisconnectHurtNeitherOtherClientsNorStoredItems()
    {
        await using var good = await TextClient.ConnectAsync(cube.Second.LocalEndPoint);
        Assert.Equal("STORED\r\n", await good.AskAsync("set fe:safe 0 0 4\r\nsafe\r\n"));

        // Like memcached, a line that is no get and longer than the line buffer closes the connection without a word.
        var bytes = new byte[10_000];
        new Random(3).NextBytes(bytes);
        bytes.AsSpan().Replace((byte)10, (byte)0);
        bytes[0] = (byte)'x';
        Assert.Equal(("", true), await RawExchange.SendAsync(cube.First.LocalEndPoint, bytes, halfClose: false));

        await using (var quitter = await TextClient.ConnectAsync(cube.First.LocalEndPoint))
        {
            await quitter.SendAsync("set fe:safe 0 0 100\r\nonly part of it");
            quitter.Close();
        }

        Assert.Equal("VALUE fe:safe 0 4\r\nsafe\r\nEND\r\n", await good.AskAsync("get fe:safe\r\n", "END\r\n"));
        await using var again = await TextClient.ConnectAsync(cube.First.LocalEndPoint);
        Assert.Equal("VALUE fe:safe 0 4\r\nsafe\r\nEND\r\n", await again.AskAsync("get fe:safe\r\n", "END\r\n"));
    }

    [Fact]
    public async Task QuitClosesTheConnection()
    {
        await using var c = await TextClient.ConnectAsync(cube.First.LocalEndPoint);
        await c.SendAsync("quit\r\n");
        Assert.True(await c.IsClosedByServerAsync());
    }

    [Fact]
    public async Task BinaryRequestIsAnsweredWithAnErrorAndTheConnectionClosed()
    {
        // A binary get of key "a" with opaque 9,9,9,9, then a text command that must not be answered.
        byte[] get = [0x80, 0x00, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 9, 9, 9, 9, 0, 0, 0, 0, 0, 0, 0, 0, (byte)'a', .. "get fe:bin\r\n"u8];
        var (reply, closed) = await RawExchange.SendAsync(cube.First.LocalEndPoint, get, halfClose: false);
        Assert.Equal("\x81\0\0\0\0\0\0\x81\0\0\0\x0F\x09\x09\x09\x09\0\0\0\0\0\0\0\0Unknown command", reply);
        Assert.True(closed);
    }

    [Fact]
    public async Task PipelinedCommandsInOneWriteAreAnsweredInOrder()
    {
        // Keys rooted all over the cube, so some commands are answered at once and others through the loop.
        var value = new string('v', 300_000);
        var request = new StringBuilder($"set fe:large 1 0 {value.Length}\r\n{value}\r\n");
        var expected = new StringBuilder("STORED\r\n");
        for (var i = 0; i < 40; i++)
        {
            request.Append(FormattableString.Invariant($"set fe:p{i} {i} 0 {i.ToString(CultureInfo.InvariantCulture).Length}\r\n{i}\r\nget fe:p{i} fe:none\r\nincr fe:p{i} 5\r\n"));
            expected.Append(FormattableString.Invariant($"STORED\r\nVALUE fe:p{i} {i} {i.ToString(CultureInfo.InvariantCulture).Length}\r\n{i}\r\nEND\r\n{i + 5}\r\n"));
        }

        request.Append("delete fe:p0\r\nget fe:p0 fe:p39 fe:large\r\n");
        expected.Append($"DELETED\r\nVALUE fe:p39 39 2\r\n44\r\nVALUE fe:large 1 {value.Length}\r\n{value}\r\nEND\r\n");

        await using var c = await TextClient.ConnectAsync(cube.First.LocalEndPoint);
        await c.SendAsync(request.ToString());
        Assert.Equal(expected.ToString(), await c.ReadUntilAsync($"{value}\r\nEND\r\n"));

        await using var d = await TextClient.ConnectAsync(cube.Second.LocalEndPoint);
        Assert.Equal($"VALUE fe:large 1 {value.Length}\r\n{value}\r\nEND\r\n", await d.AskAsync("get fe:large\r\n", "END\r\n"));
    }
}
