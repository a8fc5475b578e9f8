using System.Globalization;
using System.Net;
using System.Text;
using CamCube.Cli.Cube;
using CamCube.Services.KeyValue.FrontEnd;

namespace CamCube.Cli;

/// <summary>
/// <c>camcube kv put|get|cas|del</c>: the replicated key-value store from the shell, through a
/// node's memcached front-end (the store's own, port 11311 + i), so the shell sees exactly what
/// every memcached client sees; the cas unique it shows and takes is the store's version.
/// </summary>
internal static class KeyValueCommand
{
    /// <summary>Exit code when the key holds no value (get, cas, del).</summary>
    public const int ExitNotFound = 3;

    /// <summary>Exit code when a condition failed: put --if-absent on a key that holds a value, cas on another version.</summary>
    public const int ExitConditionFailed = 4;

    public const string Usage = """
        usage: camcube kv <put|get|cas|del> <key> [...] [--node x,y,z | --server host:port] [--state-dir DIR]

          kv put <key> <value> [--flags N] [--if-absent]   store the value ('-' reads it from standard input);
                                                         --if-absent stores only when the key holds none
          kv get <key> [--json]                          print the value; --json: key, version, flags, value
          kv cas <key> <version> <value> [--flags N]     store only when the key still holds <version> (from get --json)
          kv del <key>                                   delete the key's value

          --node     the node of the running cube whose front-end to use (default 0,0,0)
          --server   a front-end's address instead, such as 127.0.0.1:11311

          --flags, --if-absent and --json apply only to the verbs shown; elsewhere they are refused.
          Everything after '--' is a key, version or value, even when it starts with '-'.

        Keys are memcached keys (1 to 250 bytes, no spaces or control characters); keys and values
        are bytes, sent as given even when they are not UTF-8 ('-' reads the value's bytes from
        standard input, and get prints them as stored; get --json shows the value as UTF-8 text,
        each invalid byte as U+FFFD).
        Exit codes: 0 done, 1 the store or the front-end failed (the message says why),
        2 bad usage, 3 the key holds no value, 4 the condition failed (put --if-absent, cas).
        """;

    /// <summary>The options only some verbs take, with those verbs; every verb takes --node, --server and --state-dir.</summary>
    private static readonly (string Option, string[] Verbs)[] s_verbOptions = [("--flags", ["put", "cas"]), ("--if-absent", ["put"]), ("--json", ["get"])];

    public static int Run(IReadOnlyList<string> args, CliConsole console)
    {
        if (args.Count == 0)
        {
            throw new UsageException("kv: say put, get, cas or del.");
        }

        var (verb, arity) = args[0] switch
        {
            "put" => ("put", 2),
            "get" => ("get", 1),
            "cas" => ("cas", 3),
            "del" => ("del", 1),
            _ => throw new UsageException($"kv: unknown subcommand '{RawArguments.Printable(args[0])}'; use put, get, cas or del."),
        };
        var reader = new ArgumentReader("kv " + verb, args.Skip(1).ToArray(), ["--node", "--server", "--state-dir", "--flags"], ["--json", "--if-absent"]);
        RejectOptionsOfOtherVerbs(verb, reader);
        if (reader.Positional.Count != arity)
        {
            throw new UsageException($"kv {verb}: give {(arity switch { 1 => "a key", 2 => "a key and a value", _ => "a key, a version and a value" })}.");
        }

        // The key's raw bytes, as 'camcube key' hashes them: an argument that is not UTF-8 keeps its bytes.
        var key = new KeyArgument(RawArguments.GetBytes(reader.Positional[0]), RawArguments.Printable(reader.Positional[0]));
        if (key.Bytes.Length > Memcached.MemcachedKeys.LengthMax)
        {
            throw new UsageException($"kv {verb}: the key is {key.Bytes.Length} bytes long; a memcached key is at most {Memcached.MemcachedKeys.LengthMax} bytes.");
        }

        if (!Memcached.MemcachedKeys.IsValid(key.Bytes))
        {
            throw new UsageException($"kv {verb}: '{key.Name}' is not a memcached key (1 to 250 bytes, no spaces or control characters).");
        }

        var flags = (uint)reader.Long("--flags", 0, 0, uint.MaxValue);
        var version = verb == "cas" ? Version(reader.Positional[1]) : 0;
        using var client = Connect(verb, reader);
        return verb switch
        {
            "get" => Get(client, key, reader.Flag("--json"), console),
            "put" => Report(verb, key.Name, client.Store(reader.Flag("--if-absent") ? "add" : "set", key.Bytes, flags, Value(reader.Positional[1], console), cas: null), console),
            "cas" => Report(verb, key.Name, client.Store("cas", key.Bytes, flags, Value(reader.Positional[2], console), version), console),
            _ => Report(verb, key.Name, client.Delete(key.Bytes), console),
        };
    }

    /// <summary>Refuses an option the verb does not use, rather than ignoring it (kv del --flags 3 stores no flags).</summary>
    private static void RejectOptionsOfOtherVerbs(string verb, ArgumentReader reader)
    {
        foreach (var (option, verbs) in s_verbOptions)
        {
            if (!verbs.Contains(verb) && (reader.Flag(option) || reader.All(option).Count > 0))
            {
                throw new UsageException($"kv {verb}: option {option} is only for {string.Join(" and ", verbs.Select(v => "kv " + v))}.");
            }
        }
    }

    private static int Get(KeyValueClient client, KeyArgument key, bool json, CliConsole console)
    {
        if (client.Get(key.Bytes) is not { } item)
        {
            console.Error.WriteLine($"camcube kv get: '{key.Name}' holds no value.");
            return ExitNotFound;
        }

        if (json)
        {
            var line = new KeyValueLine(key.Name, item.Version, item.Flags, Encoding.UTF8.GetString(item.Value));
            console.Out.WriteLine(System.Text.Json.JsonSerializer.Serialize(line, CliJsonContext.Default.KeyValueLine));
        }
        else
        {
            console.WriteRawLine(item.Value);
        }

        return CliApp.ExitOk;
    }

    /// <summary>The front-end's answer to a value over the store's limit (memcached's words).</summary>
    private const string TooLarge = "SERVER_ERROR object too large for cache";

    /// <summary>Turns a store command's reply into an exit code; what failed says why on one line.</summary>
    private static int Report(string verb, string key, string reply, CliConsole console)
    {
        var (exit, why) = reply switch
        {
            "STORED" or "DELETED" => (CliApp.ExitOk, null),
            "NOT_FOUND" => (ExitNotFound, $"'{key}' holds no value."),
            "NOT_STORED" => (ExitConditionFailed, $"'{key}' already holds a value."),
            "EXISTS" => (ExitConditionFailed, $"'{key}' holds another version (see 'camcube kv get {key} --json')."),
            TooLarge => throw new CommandFailedException($"the front-end answered {verb} with: {reply} (the store's nodes take values of up to KeyValue:ValueBytesMax bytes, 8192 unless set; 'camcube cube up --kv-value-max BYTES' sets it on every node)"),
            _ => throw new CommandFailedException($"the front-end answered {verb} with: {reply}"),
        };
        if (why is not null)
        {
            console.Error.WriteLine($"camcube kv {verb}: {why}");
        }

        return exit;
    }

    /// <summary>A value's bytes as they came: from the argument (raw where it is not UTF-8) or, for '-', from standard input.</summary>
    private static byte[] Value(string text, CliConsole console) => text == "-" ? console.ReadAllBytes() : RawArguments.GetBytes(text);

    private static ulong Version(string text) =>
        ulong.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var version) && version > 0
            ? version
            : throw new UsageException($"kv cas: the version '{text}' is not a positive whole number (take it from 'camcube kv get <key> --json').");

    /// <summary>Connects to --server, or to --node's front-end of the running cube (default node 0,0,0).</summary>
    private static KeyValueClient Connect(string verb, ArgumentReader reader)
    {
        IPEndPoint endPoint;
        if (reader.Single("--server") is { } server)
        {
            if (reader.Single("--node") is not null)
            {
                throw new UsageException($"kv {verb}: give --node or --server, not both.");
            }

            endPoint = IPEndPoint.TryParse(server, out var parsed) && parsed.Port != 0
                ? parsed
                : throw new UsageException($"--server: '{server}' is not an address and port such as 127.0.0.1:{KeyValueFrontEndOptions.DefaultPort}.");
        }
        else
        {
            var layout = CubeLayout.Default(reader.Single("--state-dir"));
            var cube = CubeCommand.RequireCube(layout);
            var shape = TorusShape.Parse(cube.Shape);
            var node = reader.Single("--node") is { } text ? ArgumentReader.ParseCoordinate("--node", text, shape) : default;
            var basePort = cube.KeyValueBasePort ?? throw new CommandFailedException("the running cube serves no key-value front-end (it was started with --no-kv or --node).");
            endPoint = new IPEndPoint(IPAddress.Loopback, basePort + (int)shape.IndexOf(node));
        }

        return KeyValueClient.Connect(endPoint);
    }

    /// <summary>A key as sent (its raw bytes) and as printed in messages (invalid UTF-8 shown as U+FFFD).</summary>
    private readonly record struct KeyArgument(byte[] Bytes, string Name);
}
