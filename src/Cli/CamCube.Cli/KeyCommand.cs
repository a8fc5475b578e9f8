using System.Buffers;
using System.Text;
using System.Text.Json;

namespace CamCube.Cli;

/// <summary>
/// <c>camcube key</c>: for each key, its 160-bit id, its key coordinate and the servers
/// GetServersForKey gives under a set of failed servers. Answers "which servers hold my key?".
/// </summary>
internal static class KeyCommand
{
    public const string Usage = """
        usage: camcube key <key>... [--shape 3x3x3] [--replicas r] [--failed x,y,z ...] [--hex] [--json]

          <key>          a string key (SHA-1 of its bytes, as given, even when they are not UTF-8); '-' reads keys one per line from standard input
          --shape        the torus, XxYxZ (default 3x3x3)
          --replicas     how many servers to list, 1 to 100000 (default 3); fewer when fewer are reachable
          --failed       a failed server, x,y,z; repeat for several
          --hex          keys are 40-digit hexadecimal ids instead of strings to hash
          --json         one JSON object per key per line: key, id, keyCoordinate {x,y,z,w}, servers [[x,y,z],...]
        """;

    /// <summary>The most servers listed per key (--replicas).</summary>
    public const int ReplicasMax = 100_000;

    private static readonly string[] s_valueOptions = ["--shape", "--replicas", "--failed"];
    private static readonly string[] s_flagOptions = ["--json", "--hex"];

    public static int Run(IReadOnlyList<string> args, CliConsole console)
    {
        var reader = new ArgumentReader("key", args, s_valueOptions, s_flagOptions);
        var shape = ArgumentReader.ParseShape(reader.Single("--shape") ?? "3x3x3");
        var replicas = reader.Int("--replicas", 3, 1, ReplicasMax);
        var view = new ReachabilityView(shape);
        foreach (var text in reader.All("--failed"))
        {
            view.SetReachable(ArgumentReader.ParseCoordinate("--failed", text, shape), reachable: false);
        }

        if (view.ReachableCount == 0)
        {
            throw new UsageException($"--failed: every server of {shape} is failed, so no key has a root.");
        }

        if (reader.Positional.Count == 0)
        {
            throw new UsageException("key: give at least one key, or '-' to read keys from standard input.");
        }

        var printer = new Printer(KeySpace.For(shape), view, replicas, reader.Flag("--json"), reader.Flag("--hex"), console.Out);
        foreach (var key in reader.Positional)
        {
            if (key == "-")
            {
                foreach (var line in console.ReadRawLines())
                {
                    if (line.Length > 0)
                    {
                        printer.Print(line);
                    }
                }
            }
            else
            {
                printer.Print(key);
            }
        }

        console.Out.Flush();
        return 0;
    }

    private sealed class Printer(KeySpace keySpace, ReachabilityView view, int replicas, bool json, bool hex, TextWriter output)
    {
        private readonly Coordinate[] _servers = new Coordinate[(int)Math.Min(replicas, view.ReachableCount)];
        private readonly ArrayBufferWriter<byte> _buffer = new(256);
        private readonly StringBuilder _line = new(256);

        public void Print(string text)
        {
            Key key;
            if (hex)
            {
                if (!Key.TryParseHex(text.Trim(), out key))
                {
                    throw new UsageException($"key: '{text}' is not a 40-digit hexadecimal id (--hex).");
                }
            }
            else
            {
                // The raw bytes, as the memcached front-end hashes them: an argument that is not UTF-8 keeps its bytes.
                key = Key.Hash(RawArguments.GetBytes(text));
                text = RawArguments.Printable(text);
            }

            var kc = keySpace.KeyCoordinateOf(key);
            var count = keySpace.GetServersForKey(kc, view, _servers);
            var servers = _servers.AsSpan(0, count);
            if (json)
            {
                WriteJson(text, key, kc, servers);
            }
            else
            {
                WriteText(text, key, kc, servers);
            }
        }

        private void WriteText(string text, Key key, KeyCoordinate kc, ReadOnlySpan<Coordinate> servers)
        {
            _line.Clear().Append(text).Append("  id=").Append(key.ToString()).Append("  keyCoordinate=").Append(kc.ToString()).Append("  servers=");
            for (var i = 0; i < servers.Length; i++)
            {
                _line.Append(i == 0 ? string.Empty : " ").Append(servers[i].ToString());
            }

            output.WriteLine(_line);
        }

        private void WriteJson(string text, Key key, KeyCoordinate kc, ReadOnlySpan<Coordinate> servers)
        {
            _buffer.ResetWrittenCount();
            using (var writer = new Utf8JsonWriter(_buffer))
            {
                writer.WriteStartObject();
                writer.WriteString("key", text);
                writer.WriteString("id", key.ToString());
                writer.WriteStartObject("keyCoordinate");
                writer.WriteNumber("x", kc.X);
                writer.WriteNumber("y", kc.Y);
                writer.WriteNumber("z", kc.Z);
                writer.WriteNumber("w", kc.W);
                writer.WriteEndObject();
                writer.WriteStartArray("servers");
                foreach (var server in servers)
                {
                    writer.WriteStartArray();
                    writer.WriteNumberValue(server.X);
                    writer.WriteNumberValue(server.Y);
                    writer.WriteNumberValue(server.Z);
                    writer.WriteEndArray();
                }

                writer.WriteEndArray();
                writer.WriteEndObject();
            }

            output.WriteLine(Encoding.UTF8.GetString(_buffer.WrittenSpan));
        }
    }
}
