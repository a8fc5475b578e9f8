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

        Keys are memcached keys (1 to 250 bytes, no spaces or control characters); values are text
        (UTF-8). Exit codes: 0 done, 1 the store or the front-end failed (the message says why),
        2 bad usage, 3 the key holds no value, 4 the condition failed (put --if-absent, cas).
        """;

    public static int Run(IReadOnlyList<string> args, CliConsole console)
    {
        if (args.Count == 0)
        {
            throw new UsageException("kv: say put, get, cas or del.");
        }

        var reader = new ArgumentReader("kv " + args[0], args.Skip(1).ToArray(), ["--node", "--server", "--state-dir", "--flags"], ["--json", "--if-absent"]);
        var (verb, arity) = args[0] switch
        {
            "put" => ("put", 2),
            "get" => ("get", 1),
            "cas" => ("cas", 3),
            "del" => ("del", 1),
            _ => throw new UsageException($"kv: unknown subcommand '{args[0]}'; use put, get, cas or del."),
        };
        if (reader.Positional.Count != arity)
        {
            throw new UsageException($"kv {verb}: give {(arity switch { 1 => "a key", 2 => "a key and a value", _ => "a key, a version and a value" })}.");
        }

        var key = reader.Positional[0];
        if (!Memcached.MemcachedKeys.IsValid(Encoding.UTF8.GetBytes(key)))
        {
            throw new UsageException($"kv {verb}: '{key}' is not a memcached key (1 to 250 bytes, no spaces or control characters).");
        }

        var flags = (uint)reader.Int("--flags", 0, 0, int.MaxValue);
        var version = verb == "cas" ? Version(reader.Positional[1]) : 0;
        using var client = Connect(verb, reader);
        return verb switch
        {
            "get" => Get(client, key, reader.Flag("--json"), console),
            "put" => Report(verb, key, client.Store(reader.Flag("--if-absent") ? "add" : "set", key, flags, Value(reader.Positional[1], console), cas: null), console),
            "cas" => Report(verb, key, client.Store("cas", key, flags, Value(reader.Positional[2], console), version), console),
            _ => Report(verb, key, client.Delete(key), console),
        };
    }

    private static int Get(KeyValueClient client, string key, bool json, CliConsole console)
    {
        if (client.Get(key) is not { } item)
        {
            console.Error.WriteLine($"camcube kv get: '{key}' holds no value.");
            return ExitNotFound;
        }

        var value = Encoding.UTF8.GetString(item.Value);
        console.Out.WriteLine(json
            ? System.Text.Json.JsonSerializer.Serialize(new KeyValueLine(key, item.Version, item.Flags, value), CliJsonContext.Default.KeyValueLine)
            : value);
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

    private static byte[] Value(string text, CliConsole console) => Encoding.UTF8.GetBytes(text == "-" ? console.In.ReadToEnd() : text);

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
}
