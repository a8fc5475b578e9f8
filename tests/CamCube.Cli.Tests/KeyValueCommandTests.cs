using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Net.Sockets;

namespace CamCube.Cli.Tests;

/// <summary>
/// <c>camcube kv</c> as a real process against a real <c>camcube node</c> process (a one-server cube,
/// the store in memory, its memcached front-end on a free port): exit codes and one-line errors.
/// </summary>
[System.Runtime.Versioning.UnsupportedOSPlatform("windows")]
public sealed class KeyValueCommandTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();
    private Process? _node;

    public void Dispose()
    {
        if (_node is { HasExited: false })
        {
            _node.Kill(entireProcessTree: true);
            _node.WaitForExit();
        }

        _node?.Dispose();
        _directory.Dispose();
    }

    [Fact]
    public void PutGetCasAndDelGoThroughANodesFrontEndWithTheirExitCodes()
    {
        var server = StartNode("memory");

        Assert.Equal((0, "", ""), CliRunner.RunProcess("", "kv", "put", "greeting", "hello", "--server", server));
        Assert.Equal((0, "hello\n", ""), CliRunner.RunProcess("", "kv", "get", "greeting", "--server", server));
        var json = CliRunner.RunProcess("", "kv", "get", "greeting", "--json", "--server", server);
        var version = System.Text.Json.JsonDocument.Parse(json.Out).RootElement.GetProperty("version").GetUInt64();

        var stale = CliRunner.RunProcess("", "kv", "cas", "greeting", (version + 1).ToString(CultureInfo.InvariantCulture), "bye", "--server", server);
        Assert.Equal((4, "camcube kv cas: 'greeting' holds another version (see 'camcube kv get greeting --json').\n"), (stale.Exit, stale.Error));
        Assert.Equal(0, CliRunner.RunProcess("", "kv", "cas", "greeting", version.ToString(CultureInfo.InvariantCulture), "bye", "--flags", "4294967295", "--server", server).Exit);
        Assert.Contains("\"flags\":4294967295,\"value\":\"bye\"", CliRunner.RunProcess("", "kv", "get", "greeting", "--json", "--server", server).Out, StringComparison.Ordinal);

        Assert.Equal(0, CliRunner.RunProcess("", "kv", "del", "greeting", "--server", server).Exit);
        Assert.Equal((3, "", "camcube kv get: 'greeting' holds no value.\n"), CliRunner.RunProcess("", "kv", "get", "greeting", "--server", server));
        Assert.Equal(3, CliRunner.RunProcess("", "kv", "del", "greeting", "--server", server).Exit);
        Assert.Equal(0, CliRunner.RunProcess("from stdin", "kv", "put", "once", "-", "--if-absent", "--server", server).Exit);
        Assert.Equal((4, "camcube kv put: 'once' already holds a value.\n"), Select(CliRunner.RunProcess("", "kv", "put", "once", "again", "--if-absent", "--server", server)));
        Assert.Equal("from stdin\n", CliRunner.RunProcess("", "kv", "get", "once", "--server", server).Out);
    }

    [Fact]
    public void ANodeKeepsItsStoreInASqliteDatabaseUnderItsDirectoryByDefault()
    {
        var server = StartNode(storage: null);

        Assert.Equal(0, CliRunner.RunProcess("", "kv", "put", "durable", "yes", "--server", server).Exit);

        Assert.True(File.Exists(Path.Combine(_directory.Path, "data", "keyvalue-0-0-0.db")));
    }

    [Fact]
    public void TheCacheOnTheSameNodeServesWhatTheStoreHoldsWithoutASecondCopy()
    {
        var cachePort = FreePort();
        var server = StartNode("sqlite", cachePort);
        Assert.Equal(0, CliRunner.RunProcess("", "kv", "put", "shared", "one copy", "--flags", "5", "--server", server).Exit);
        var version = System.Text.Json.JsonDocument.Parse(CliRunner.RunProcess("", "kv", "get", "shared", "--json", "--server", server).Out).RootElement.GetProperty("version").GetUInt64();

        // memId = objId: the cache's root for the key is this node, which reads the store's replica.
        using var cache = KeyValueClient.Connect(new IPEndPoint(IPAddress.Loopback, cachePort));
        var (value, cas, flags) = cache.Get("shared"u8.ToArray())!.Value;
        Assert.Equal(("one copy", version, 5u), (System.Text.Encoding.UTF8.GetString(value), cas, flags));
        Assert.Equal("STORED", cache.Store("set", "shared"u8.ToArray(), 5, "one copy"u8.ToArray(), cas: null));
        Assert.Equal(0, CacheItems(cachePort));
    }

    [Fact]
    public void ABadCommandLineExitsTwoWithOneLineWhenMalformed()
    {
        Assert.Equal(2, CliRunner.Run("", "kv", "frob").Exit);
        var badKey = CliRunner.Run("", "kv", "get", "two words", "--server", "127.0.0.1:1");
        Assert.Equal((2, "camcube: kv get: 'two words' is not a memcached key (1 to 250 bytes, no spaces or control characters)."), (badKey.Exit, badKey.Error.Split('\n')[0]));
        var badVersion = CliRunner.Run("", "kv", "cas", "k", "latest", "v", "--server", "127.0.0.1:1");
        Assert.Equal((2, "camcube: kv cas: the version 'latest' is not a positive whole number (take it from 'camcube kv get <key> --json')."), (badVersion.Exit, badVersion.Error.Split('\n')[0]));
    }

    [Fact]
    public void AFrontEndThatIsNotThereExitsOneWithAMessage()
    {
        var port = FreePort();

        var (exit, _, error) = CliRunner.Run("", "kv", "get", "k", "--server", $"127.0.0.1:{port}");

        Assert.Equal(1, exit);
        Assert.StartsWith($"camcube kv: no key-value front-end answers on 127.0.0.1:{port} (", error, StringComparison.Ordinal);
        Assert.Single(error.TrimEnd('\n').Split('\n'));
    }

    [Fact]
    public void PutGetAndStaleCasGoThroughANodeWhoseStoreIsBestEffort()
    {
        var server = StartNode("memory", delivery: "best-effort");

        Assert.Equal((0, "", ""), CliRunner.RunProcess("", "kv", "put", "greeting", "hello", "--server", server));
        Assert.Equal((0, "hello\n", ""), CliRunner.RunProcess("", "kv", "get", "greeting", "--server", server));
        var version = System.Text.Json.JsonDocument.Parse(CliRunner.RunProcess("", "kv", "get", "greeting", "--json", "--server", server).Out).RootElement.GetProperty("version").GetUInt64();
        Assert.Equal(4, CliRunner.RunProcess("", "kv", "cas", "greeting", (version + 1).ToString(CultureInfo.InvariantCulture), "bye", "--server", server).Exit);
    }

    [Fact]
    public void PutOfAValueOverTheStoresLimitExitsOneAndSaysHowToRaiseIt()
    {
        var server = StartNode("memory");

        var (exit, output, error) = CliRunner.RunProcess(new string('x', 10_000), "kv", "put", "big", "-", "--server", server);

        Assert.Equal((1, ""), (exit, output));
        Assert.Contains("SERVER_ERROR object too large for cache", error, StringComparison.Ordinal);
        Assert.Contains("--kv-value-max", error, StringComparison.Ordinal);
        Assert.Single(error.TrimEnd('\n').Split('\n'));
        Assert.Equal((3, "", "camcube kv get: 'big' holds no value.\n"), CliRunner.RunProcess("", "kv", "get", "big", "--server", server));
    }

    [Fact]
    public void ANodeRefusesAnUnknownStorageWithOneLine()
    {
        var (exit, _, error) = CliRunner.RunProcess("", "node", "--shape", "1x1x1", "--coord", "0,0,0", "--insecure", "--base-port", FreePort().ToString(CultureInfo.InvariantCulture), "--kv-storage", "tape");

        Assert.Equal(1, exit);
        Assert.Contains("KeyValue:Storage: 'tape' is neither sqlite nor memory.", error, StringComparison.Ordinal);
        Assert.Single(error.TrimEnd('\n').Split('\n'));
    }

    [Theory]
    [InlineData("fsync")]
    [InlineData("no-fsync")]
    public void ANodeKilledWithSigkillLosesNoAcknowledgedWriteWhateverItsDurability(string durability)
    {
        const int Writes = 200;
        var server = StartNode("sqlite", durability: durability);
        using (var connection = Connect(server))
        {
            for (var i = 0; i < Writes; i++)
            {
                Assert.Equal("STORED", connection.Ask(string.Create(CultureInfo.InvariantCulture, $"set kill-{i} 0 0 {Value(i).Length}\r\n{Value(i)}\r\n")));
            }
        }

        // Process.Kill is SIGKILL on Unix: the node gets no chance to flush or close anything.
        _node!.Kill(entireProcessTree: true);
        _node.WaitForExit();
        Assert.Equal(137, _node.ExitCode);
        _node.Dispose();
        _node = null;

        server = StartNode("sqlite", durability: durability);
        using var again = Connect(server);
        for (var i = 0; i < Writes; i++)
        {
            var reply = again.Ask(string.Create(CultureInfo.InvariantCulture, $"get kill-{i}\r\n"));
            Assert.Equal(string.Create(CultureInfo.InvariantCulture, $"VALUE kill-{i} 0 {Value(i).Length}"), reply);
            Assert.Equal(Value(i), again.ReadLine());
            Assert.Equal("END", again.ReadLine());
        }

        static string Value(int i) => string.Create(CultureInfo.InvariantCulture, $"value {i} {new string('x', i % 50)}");
    }

    [Fact]
    public void KeysThatAreNotUtf8KeepTheirBytesSoTwoSuchKeysHoldTwoValues()
    {
        var server = StartNode("memory");

        // Arguments as RawArguments recovers them from the command line: each invalid byte kept as a lone surrogate.
        Assert.Equal(0, CliRunner.Run("", "kv", "put", RawArguments.Decode([(byte)'k', 0xFF]), "one", "--server", server).Exit);
        Assert.Equal(0, CliRunner.Run("", "kv", "put", RawArguments.Decode([(byte)'k', 0xFE]), "two", "--server", server).Exit);

        using var client = KeyValueClient.Connect(IPEndPoint.Parse(server));
        Assert.Equal("one"u8.ToArray(), client.Get([(byte)'k', 0xFF])!.Value.Value);
        Assert.Equal("two"u8.ToArray(), client.Get([(byte)'k', 0xFE])!.Value.Value);
        Assert.Null(client.Get([(byte)'k', 0xEF, 0xBF, 0xBD]));
        Assert.Equal((0, "two\n", ""), CliRunner.Run("", "kv", "get", RawArguments.Decode([(byte)'k', 0xFE]), "--server", server));
    }

    [Fact]
    public void AValueThatIsNotUtf8IsStoredAndPrintedByteForByte()
    {
        var server = StartNode("memory");
        byte[] binary = [0xFF, 0x00, 0xC3, 0x28, 0x80, (byte)'\n', 0xFE];

        Assert.Equal((0, "", ""), CliRunner.RunProcess(binary, "kv", "put", "stdin", "-", "--server", server));
        Assert.Equal(0, CliRunner.Run("", "kv", "put", "argument", RawArguments.Decode([0xC3, 0x28, 0xFF]), "--server", server).Exit);

        using var client = KeyValueClient.Connect(IPEndPoint.Parse(server));
        Assert.Equal(binary, client.Get("stdin"u8.ToArray())!.Value.Value);
        Assert.Equal([0xC3, 0x28, 0xFF], client.Get("argument"u8.ToArray())!.Value.Value);
        var (exit, output, error) = CliRunner.RunProcessRaw([], "kv", "get", "stdin", "--server", server);
        Assert.Equal((0, ""), (exit, error));
        Assert.Equal([.. binary, (byte)'\n'], output);
    }

    [Fact]
    public void PutStoresAValueThatLooksLikeHelpWhenItFollowsDoubleDash()
    {
        var server = StartNode("memory");

        Assert.Equal((0, "", ""), CliRunner.Run("", "kv", "put", "looks-like-help", "--server", server, "--", "-h"));

        Assert.Equal((0, "-h\n", ""), CliRunner.Run("", "kv", "get", "looks-like-help", "--server", server));
    }

    [Fact]
    public void ACommandLineRejectedWithExitTwoStoresNothing()
    {
        var server = StartNode("memory");
        string[][] rejected =
        [
            ["kv", "put", "json", "v", "--json", "--server", server],
            ["kv", "put", "flags", "v", "--flags", "red", "--server", server],
            ["kv", "put", "both", "v", "--node", "0,0,0", "--server", server],
            ["kv", "put", "missing", "--server", server],
            ["kv", "put", new string('k', 251), "v", "--server", server],
        ];

        foreach (var args in rejected)
        {
            Assert.Equal(2, CliRunner.Run("", args).Exit);
        }

        foreach (var key in new[] { "json", "flags", "both", "missing", new string('k', 250) })
        {
            Assert.Equal(3, CliRunner.Run("", "kv", "get", key, "--server", server).Exit);
        }
    }

    /// <summary>A memcached text connection to a front-end at host:port.</summary>
    private static TextConnection Connect(string server)
    {
        var endPoint = IPEndPoint.Parse(server);
        var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { ReceiveTimeout = 30_000 };
        socket.Connect(endPoint);
        return new TextConnection(socket);
    }

    /// <summary>The cache's curr_items, from memcached's stats on its front-end.</summary>
    private static long CacheItems(int port)
    {
        using var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { ReceiveTimeout = 30_000 };
        socket.Connect(IPAddress.Loopback, port);
        using var stream = new NetworkStream(socket);
        using var reader = new StreamReader(stream, System.Text.Encoding.ASCII);
        stream.Write("stats\r\n"u8);
        for (var line = reader.ReadLine(); line is not null and not "END"; line = reader.ReadLine())
        {
            if (line.StartsWith("STAT curr_items ", StringComparison.Ordinal))
            {
                return long.Parse(line["STAT curr_items ".Length..], CultureInfo.InvariantCulture);
            }
        }

        throw new InvalidOperationException("the cache's stats have no curr_items");
    }

    private static (int Exit, string Error) Select((int Exit, string Out, string Error) result) => (result.Exit, result.Error);

    private static int FreePort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }

    /// <summary>Starts a one-server cube's node process with the store's front-end on a free port; returns its address once it answers.</summary>
    private string StartNode(string? storage, int? memcachedPort = null, string? delivery = null, string? durability = null)
    {
        var kvPort = FreePort();
        var start = new ProcessStartInfo("dotnet") { RedirectStandardInput = true, RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        start.ArgumentList.Add(Path.Combine(AppContext.BaseDirectory, "camcube.dll"));
        foreach (var arg in new[] { "node", "--shape", "1x1x1", "--coord", "0,0,0", "--insecure", "--base-port", FreePort().ToString(CultureInfo.InvariantCulture), "--kv-port", kvPort.ToString(CultureInfo.InvariantCulture), "--kv-dir", Path.Combine(_directory.Path, "data"), "--exit-with-stdin" })
        {
            start.ArgumentList.Add(arg);
        }

        if (memcachedPort is { } port)
        {
            start.ArgumentList.Add("--memcached-port");
            start.ArgumentList.Add(port.ToString(CultureInfo.InvariantCulture));
            start.ArgumentList.Add("--kv-cache");
        }

        if (storage is not null)
        {
            start.ArgumentList.Add("--kv-storage");
            start.ArgumentList.Add(storage);
        }

        if (delivery is not null)
        {
            start.ArgumentList.Add("--kv-delivery");
            start.ArgumentList.Add(delivery);
        }

        if (durability is not null)
        {
            start.ArgumentList.Add("--kv-durability");
            start.ArgumentList.Add(durability);
        }

        // Ready when the node logs that the store's front-end listens (CamCube.Memcached's listener).
        var listening = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var output = new System.Collections.Concurrent.ConcurrentQueue<string>();
        _node = Process.Start(start)!;
        _node.OutputDataReceived += (_, e) => Note(e.Data);
        _node.ErrorDataReceived += (_, e) => Note(e.Data);
        _node.BeginOutputReadLine();
        _node.BeginErrorReadLine();
        if (listening.Task.Wait(TimeSpan.FromMinutes(1)))
        {
            return $"127.0.0.1:{kvPort}";
        }

        void Note(string? line)
        {
            if (line is null)
            {
                return;
            }

            output.Enqueue(line);
            if (line.Contains($"listening on 127.0.0.1:{kvPort}", StringComparison.Ordinal))
            {
                listening.TrySetResult();
            }
        }

        throw new TimeoutException($"the node's key-value front-end did not listen within a minute; it said: {string.Join(" | ", output)}");
    }

    /// <summary>One line-oriented memcached text connection: a command out, its first line back.</summary>
    private sealed class TextConnection(Socket socket) : IDisposable
    {
        private readonly NetworkStream _stream = new(socket, ownsSocket: true);
        private StreamReader? _reader;

        private StreamReader Reader => _reader ??= new StreamReader(_stream, System.Text.Encoding.ASCII);

        public string? Ask(string command)
        {
            _stream.Write(System.Text.Encoding.ASCII.GetBytes(command));
            return Reader.ReadLine();
        }

        public string? ReadLine() => Reader.ReadLine();

        public void Dispose()
        {
            _reader?.Dispose();
            _stream.Dispose();
        }
    }
}
