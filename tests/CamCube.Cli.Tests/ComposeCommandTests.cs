using System.Globalization;
using System.Text.RegularExpressions;
using CamCube.Transport.Udp;

namespace CamCube.Cli.Tests;

public class ComposeCommandTests
{
    [Fact]
    public void CommittedComposeFileIsTheGeneratorOutputFor3x3x3()
    {
        var (exit, output, error) = Compose("--shape", "3x3x3");
        Assert.Equal(0, exit);
        Assert.Equal("", error);
        var committed = File.ReadAllText(Path.Combine(RepoRoot(), "docker", "compose.yml")).ReplaceLineEndings("\n");
        Assert.True(
            committed == output,
            "docker/compose.yml differs from the generator's output; regenerate it with " +
            "'dotnet run --project src/Cli/CamCube.Cli -- compose > docker/compose.yml'.");

        // The defaults are the 3x3x3 cube.
        Assert.Equal(output, Compose().Out);
    }

    [Theory]
    [InlineData("3x3x3", 7000, 11211)]
    [InlineData("2x3x4", 7100, 20000)]
    [InlineData("1x1x5", 9000, 30000)]
    public void EveryServerIsOneServiceWhosePeersAndCoordinateAgree(string shapeText, int port, int memcachedPort)
    {
        var shape = TorusShape.Parse(shapeText);
        var (exit, output, _) = Compose("--shape", shapeText, "--port", Str(port), "--memcached-port", Str(memcachedPort));
        Assert.Equal(0, exit);
        var services = ParseServices(output);
        Assert.Equal(shape.ServerCount, services.Count);
        Assert.Equal(services.Count, services.Select(s => s.Hostname).Distinct().Count());
        Assert.Equal(services.Count, services.Select(s => s.HostPort).Distinct().Count());

        var byCoordinate = new Dictionary<Coordinate, Service>();
        foreach (var service in services)
        {
            Assert.Equal(service.Name, service.Hostname);
            Assert.True(Coordinate.TryParse(service.Environment["CAMCUBE__COORDINATE"], out var self), service.Name);
            Assert.True(shape.Contains(self), service.Name);
            Assert.True(byCoordinate.TryAdd(self, service), $"coordinate {self} appears twice");
            Assert.Equal($"cc-{self.X}-{self.Y}-{self.Z}", service.Name);
            Assert.Equal(shapeText, service.Environment["CAMCUBE__SHAPE"]);
            Assert.Equal("/run/secrets/cluster_key", service.Environment["CAMCUBE__KEYFILE"]);
            Assert.Equal(memcachedPort + shape.IndexOf(self), service.HostPort);
            Assert.Equal(11311 + shape.IndexOf(self), service.KeyValuePort);

            // The peer pattern names every neighbour's service, on the port every node binds.
            var addressing = UdpPeerAddressing.Parse(service.Environment["CAMCUBE__PEERS"]);
            Assert.False(addressing.IsBasePort);
            Assert.Equal(port, addressing.GetBindEndPoint(shape, self).Port);
            Assert.Equal(service.Name, addressing.GetHost(shape, self));
            for (var d = 0; d < LinkDirections.Count; d++)
            {
                if (shape.HasLink((LinkDirection)d))
                {
                    var neighbor = shape.Neighbor(self, (LinkDirection)d);
                    Assert.Contains(services, s => s.Name == addressing.GetHost(shape, neighbor));
                    Assert.Equal(port, addressing.GetPort(shape, neighbor));
                }
            }
        }

        Assert.Equal(shape.ServerCount, byCoordinate.Count);
    }

    [Theory]
    [InlineData("--shape 3by3by3", "--shape")]
    [InlineData("--shape 0x3x3", "--shape")]
    [InlineData("--port 0", "--port")]
    [InlineData("--port 70000", "--port")]
    [InlineData("--port seven", "--port")]
    [InlineData("--memcached-port 65530", "past 65535")]
    [InlineData("--kv-port 11220", "apart from the memcached ports")]
    [InlineData("--shape 40x40x40", "past 65535")]
    [InlineData("--image camcube:latest\"x", "--image")]
    [InlineData("--image=", "--image")]
    [InlineData("extra", "unexpected argument 'extra'")]
    [InlineData("--replicas 3", "unknown option --replicas")]
    [InlineData("--port", "needs a value")]
    [InlineData("--port 7000 --port 7001", "given 2 times")]
    public void BadArgumentsSayWhatIsWrong(string args, string expected)
    {
        var ex = Assert.Throws<UsageException>(() => Compose(args.Split(' ')));
        Assert.Contains(expected, ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void OutputWritesTheFileAndAFreshKeyOnlyOnce()
    {
        var directory = Directory.CreateTempSubdirectory("camcube-compose-");
        try
        {
            var file = Path.Combine(directory.FullName, "cube", "compose.yml");
            var (exit, output, error) = Compose("--shape", "2x2x2", "--output", file);
            Assert.Equal(0, exit);
            Assert.Equal("", error);
            Assert.Contains("created a fresh cluster key", output, StringComparison.Ordinal);
            Assert.Equal(Compose("--shape", "2x2x2").Out, File.ReadAllText(file));

            var keyFile = Path.Combine(directory.FullName, "cube", "secrets", "cluster.key");
            var key = File.ReadAllText(keyFile);
            Assert.Matches("^[0-9a-f]{64}\n$", key);
            Assert.Equal(key.TrimEnd('\n'), ClusterKey.FromFile(keyFile).ToHexString());
            if (!OperatingSystem.IsWindows())
            {
                Assert.Equal(UnixFileMode.UserRead | UnixFileMode.UserWrite, File.GetUnixFileMode(keyFile));
            }

            // A second run keeps the key the running cube uses.
            (exit, output, _) = Compose("--shape", "2x2x2", "--output", file);
            Assert.Equal(0, exit);
            Assert.Contains("kept the cluster key", output, StringComparison.Ordinal);
            Assert.Equal(key, File.ReadAllText(keyFile));

            // A fresh directory gets a different key.
            var other = Path.Combine(directory.FullName, "other", "compose.yml");
            Assert.Equal(0, Compose("--output", other).Exit);
            Assert.NotEqual(key, File.ReadAllText(Path.Combine(directory.FullName, "other", "secrets", "cluster.key")));
        }
        finally
        {
            directory.Delete(recursive: true);
        }
    }

    [Fact]
    public void CommittedKeyExampleHoldsNoKey()
    {
        var example = File.ReadAllText(Path.Combine(RepoRoot(), "docker", "cluster.key.example"));
        Assert.DoesNotMatch("[0-9a-fA-F]{64}", example);
        var ignore = File.ReadAllLines(Path.Combine(RepoRoot(), ".gitignore"));
        Assert.Contains("docker/secrets/", ignore);
    }

    [Fact]
    public void ANodeProgramsImageRunsItsEntrypointAndItsOwnHealthCommandWhenProgramIsGiven()
    {
        var (exit, output, error) = Compose("--shape", "2x1x1", "--image", "hello:1", "--program", "/app/HelloService.dll");
        Assert.True(exit == 0, error);
        var services = ParseServices(output);
        Assert.Equal(2, services.Count);
        Assert.All(services, s => Assert.Equal(["CAMCUBE__SHAPE", "CAMCUBE__COORDINATE", "CAMCUBE__PEERS", "CAMCUBE__KEYFILE", "CAMCUBE__CONTROLSOCKET"], s.Environment.Keys));
        Assert.Equal(2, Regex.Count(output, "\n      test: \\[\"CMD\", \"dotnet\", \"/app/HelloService.dll\", \"health\"\\]\n"));
        Assert.DoesNotContain("command:", output, StringComparison.Ordinal);
        Assert.DoesNotContain("ports:", output, StringComparison.Ordinal);
        Assert.DoesNotContain("MEMCACHED", output, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("HelloService.dll")]
    [InlineData("/app/HelloService")]
    [InlineData("/app/Hello Service.dll")]
    public void AProgramThatIsNotAnAbsoluteDllIsRefusedByName(string program)
    {
        var ex = Assert.Throws<UsageException>(() => Compose("--program", program));
        Assert.StartsWith($"--program: '{program}' is not the absolute path of a .dll inside the image", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void KubernetesStatefulSetOrdinalsNameTheirPeers()
    {
        var text = File.ReadAllText(Path.Combine(RepoRoot(), "docker", "kubernetes", "camcube.yaml"));
        var shape = TorusShape.Parse(Value(text, "CAMCUBE__SHAPE"));
        Assert.Equal(shape.ServerCount, long.Parse(Regex.Match(text, @"\n  replicas: (\d+)\n").Groups[1].Value, CultureInfo.InvariantCulture));
        Assert.Equal("auto", Value(text, "CAMCUBE__COORDINATE"));
        Assert.Contains("podManagementPolicy: Parallel", text, StringComparison.Ordinal);
        Assert.Contains("publishNotReadyAddresses: true", text, StringComparison.Ordinal);

        // Pod camcube-N is server N in index order (what --coord auto reads from the host name),
        // and the pattern's {i} names the same pod for that server.
        var addressing = UdpPeerAddressing.Parse(Value(text, "CAMCUBE__PEERS"));
        for (long i = 0; i < shape.ServerCount; i++)
        {
            Assert.Equal($"camcube-{Str(i)}.camcube", addressing.GetHost(shape, shape.CoordinateAt(i)));
        }
    }

    private static (int Exit, string Out, string Error) Compose(params string[] args)
    {
        using var output = new StringWriter();
        using var error = new StringWriter();
        var exit = ComposeCommand.Run(args, new CliConsole(TextReader.Null, output, error));
        return (exit, output.ToString(), error.ToString());
    }

    private static string Str(long value) => value.ToString(CultureInfo.InvariantCulture);

    /// <summary>The value of an environment variable in a Kubernetes manifest (name line, then value line).</summary>
    private static string Value(string manifest, string name)
    {
        var match = Regex.Match(manifest, $"- name: {name}\\n\\s+value: \"([^\"]*)\"");
        Assert.True(match.Success, $"{name} is not set in the manifest");
        return match.Groups[1].Value;
    }

    /// <summary>Reads the services of a generated compose file (its layout is fixed: two-space indents).</summary>
    private static List<Service> ParseServices(string yaml)
    {
        var services = new List<Service>();
        Service? current = null;
        var section = "";
        foreach (var line in yaml.Split('\n'))
        {
            if (line.Length == 0 || line.StartsWith('#'))
            {
                continue;
            }

            if (!line.StartsWith(' '))
            {
                section = line;
                current = null;
                continue;
            }

            if (section != "services:")
            {
                continue;
            }

            if (Regex.Match(line, "^  ([a-z0-9-]+):$") is { Success: true } name)
            {
                current = new Service(name.Groups[1].Value);
                services.Add(current);
            }
            else if (Regex.Match(line, "^    hostname: (.+)$") is { Success: true } host)
            {
                current!.Hostname = host.Groups[1].Value;
            }
            else if (Regex.Match(line, "^      (CAMCUBE_[A-Z_]+): \"(.*)\"$") is { Success: true } variable)
            {
                current!.Environment.Add(variable.Groups[1].Value, variable.Groups[2].Value);
            }
            else if (Regex.Match(line, "^      - \"127\\.0\\.0\\.1:(\\d+):11211/tcp\"$") is { Success: true } published)
            {
                current!.HostPort = int.Parse(published.Groups[1].Value, CultureInfo.InvariantCulture);
            }
            else if (Regex.Match(line, "^      - \"127\\.0\\.0\\.1:(\\d+):11311/tcp\"$") is { Success: true } store)
            {
                current!.KeyValuePort = int.Parse(store.Groups[1].Value, CultureInfo.InvariantCulture);
            }
        }

        return services;
    }

    private static string RepoRoot()
    {
        for (var directory = new DirectoryInfo(AppContext.BaseDirectory); directory is not null; directory = directory.Parent)
        {
            if (File.Exists(Path.Combine(directory.FullName, "CamCube.sln")))
            {
                return directory.FullName;
            }
        }

        throw new InvalidOperationException($"No CamCube.sln above {AppContext.BaseDirectory}.");
    }

    private sealed class Service(string name)
    {
        public string Name { get; } = name;

        public string Hostname { get; set; } = "";

        public Dictionary<string, string> Environment { get; } = new(StringComparer.Ordinal);

        public long HostPort { get; set; } = -1;

        public long KeyValuePort { get; set; } = -1;
    }
}
