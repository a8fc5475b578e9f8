using System.Globalization;
using System.Security.Cryptography;
using System.Text;

namespace CamCube.Cli;

/// <summary>
/// <c>camcube compose</c>: writes a docker compose file with one service per server of a cube
/// (service and host name <c>cc-x-y-z</c>), the cluster key as a compose secret, and the
/// memcached front-end of server i published on 127.0.0.1 at the base port plus i.
/// docker/compose.yml is exactly its output for the defaults.
/// </summary>
internal static class ComposeCommand
{
    public const string Usage = """
        usage: camcube compose [--shape 3x3x3] [--port 7000] [--memcached-port 11211] [--kv-port 11311] [--image camcube:latest]
                               [--program /app/NODE.dll] [--output FILE]

          --shape           the torus, XxYxZ (default 3x3x3): one service cc-x-y-z per server
          --port            the UDP port every node listens on inside its container (default 7000)
          --memcached-port  host port of cc-0-0-0's memcached front-end on 127.0.0.1; server i gets this plus i (default 11211)
          --kv-port         host port of cc-0-0-0's key-value store front-end (memcached protocol); server i gets this plus i (default 11311)
          --image           the image every service runs (default camcube:latest, built from docker/Dockerfile)
          --program         the image is your node program built on CamCube.Hosting, this .dll inside it (its
                            entrypoint runs it): no memcached front-ends, and the health check runs
                            'dotnet PROGRAM health'; without it, the built-in node ('camcube node', 'camcube health')
          --output          write the file here instead of standard output, and create a fresh cluster key
                            secrets/cluster.key next to it (mode 0600) unless one is there already

        The nodes read the key from the compose secret cluster_key (file secrets/cluster.key beside the
        compose file); to make one by hand: openssl rand -hex 32 > secrets/cluster.key && chmod 600 secrets/cluster.key
        """;

    /// <summary>The memcached port inside every container.</summary>
    public const int ContainerMemcachedPort = 11_211;

    /// <summary>The key-value store's front-end port inside every container.</summary>
    public const int ContainerKeyValuePort = Services.KeyValue.FrontEnd.KeyValueFrontEndOptions.DefaultPort;

    /// <summary>Where the key secret appears inside a container.</summary>
    public const string KeyPathInContainer = "/run/secrets/cluster_key";

    /// <summary>The built-in node's program inside the image docker/Dockerfile builds.</summary>
    public const string BuiltInProgram = "/app/camcube.dll";

    /// <summary>The node's control socket inside a container (the health check asks the node on it).</summary>
    public const string ControlSocketInContainer = "/tmp/camcube.sock";

    /// <summary>The key file, relative to the compose file's directory.</summary>
    public const string KeyFileRelative = "secrets/cluster.key";

    private static readonly string[] s_valueOptions = ["--shape", "--port", "--memcached-port", "--kv-port", "--image", "--program", "--output"];

    public static int Run(IReadOnlyList<string> args, CliConsole console)
    {
        var reader = new ArgumentReader("compose", args, s_valueOptions, []);
        if (reader.Positional.Count > 0)
        {
            throw new UsageException($"compose: unexpected argument '{reader.Positional[0]}'.");
        }

        var shape = ArgumentReader.ParseShape(reader.Single("--shape") ?? "3x3x3");
        var port = reader.Int("--port", 7_000, 1, 65_535);
        var memcachedPort = reader.Int("--memcached-port", 11_211, 1, 65_535);
        if (memcachedPort + shape.ServerCount - 1 > 65_535)
        {
            throw new UsageException(
                $"--memcached-port {memcachedPort}: the {shape.ServerCount} servers of {shape} need host ports {memcachedPort} to {memcachedPort + shape.ServerCount - 1}, past 65535; choose a lower port or a smaller shape.");
        }

        var keyValuePort = reader.Int("--kv-port", ContainerKeyValuePort, 1, 65_535);
        if (keyValuePort + shape.ServerCount - 1 > 65_535 || (keyValuePort < memcachedPort + shape.ServerCount && memcachedPort < keyValuePort + shape.ServerCount))
        {
            throw new UsageException(
                $"--kv-port {keyValuePort}: the {shape.ServerCount} servers of {shape} need host ports {keyValuePort} to {keyValuePort + shape.ServerCount - 1}, apart from the memcached ports and at most 65535; choose another port.");
        }

        var image = reader.Single("--image") ?? "camcube:latest";
        if (image.Length == 0 || image.Any(c => !char.IsAsciiLetterOrDigit(c) && c is not ('.' or '_' or '-' or '/' or ':' or '@')))
        {
            throw new UsageException($"--image: '{image}' is not an image reference; use letters, digits and . _ - / : @ only, such as camcube:latest.");
        }

        var program = reader.Single("--program");
        if (program is not null && (!program.StartsWith('/') || !program.EndsWith(".dll", StringComparison.Ordinal) || program.Any(c => char.IsWhiteSpace(c) || c is '"' or '\\')))
        {
            throw new UsageException($"--program: '{program}' is not the absolute path of a .dll inside the image, such as /app/HelloService.dll.");
        }

        var yaml = Generate(shape, port, memcachedPort, image, program, keyValuePort);
        var output = reader.Single("--output");
        if (output is null)
        {
            console.Out.Write(yaml);
            console.Out.Flush();
            return CliApp.ExitOk;
        }

        try
        {
            var directory = Path.GetDirectoryName(Path.GetFullPath(output))!;
            Directory.CreateDirectory(directory);
            File.WriteAllText(output, yaml, new UTF8Encoding(encoderShouldEmitUTF8Identifier: false));
            console.Out.WriteLine($"wrote {output}: {shape.ServerCount} services of {shape}");
            var keyFile = Path.Combine(directory, KeyFileRelative);
            if (File.Exists(keyFile))
            {
                console.Out.WriteLine($"kept the cluster key {keyFile}");
            }
            else
            {
                WriteNewKey(keyFile);
                console.Out.WriteLine($"created a fresh cluster key {keyFile} (mode 0600; keep it out of version control)");
            }
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            console.Error.WriteLine($"camcube compose: {ex.Message}");
            return CliApp.ExitFailure;
        }

        return CliApp.ExitOk;
    }

    /// <summary>The host name (and compose service name) of a server.</summary>
    public static string HostName(Coordinate c) => string.Create(CultureInfo.InvariantCulture, $"cc-{c.X}-{c.Y}-{c.Z}");

    /// <summary>The compose file for a cube, with \n line endings whatever the platform.</summary>
    /// <param name="shape">The torus.</param>
    /// <param name="port">The UDP port every node binds in its container.</param>
    /// <param name="memcachedPort">The host port of server 0's memcached front-end (the built-in node only).</param>
    /// <param name="image">The image.</param>
    /// <param name="program">A node program's .dll inside the image, or null for the built-in node.</param>
    /// <param name="keyValuePort">The host port of server 0's key-value front-end (the built-in node only).</param>
    public static string Generate(TorusShape shape, int port, int memcachedPort, string image, string? program = null, int keyValuePort = ContainerKeyValuePort)
    {
        var inv = CultureInfo.InvariantCulture;
        var command = program is null
            ? string.Create(inv, $"camcube compose --shape {shape} --port {port} --memcached-port {memcachedPort} --kv-port {keyValuePort} --image {image}")
            : string.Create(inv, $"camcube compose --shape {shape} --port {port} --image {image} --program {program}");
        var b = new StringBuilder();
        Line(b, $"# Generated by `{command}`.");
        Line(b, "# Do not edit: regenerate (a test checks that docker/compose.yml equals the generator's output).");
        Line(b, "#");
        Line(b, string.Create(inv, $"# One container per server of the {shape} torus; service name, host name and coordinate agree"));
        Line(b, "# (cc-x-y-z). Nodes find each other by host name on the network 'cube' and authenticate every");
        Line(b, "# frame with the cluster key, the compose secret cluster_key. Before `docker compose up`:");
        Line(b, $"#   docker build -f docker/Dockerfile -t {image} .");
        Line(b, $"#   create {KeyFileRelative} beside this file: `camcube compose --output FILE` does, or");
        Line(b, $"#   openssl rand -hex 32 > {KeyFileRelative} && chmod 600 {KeyFileRelative}");
        Line(b, "# Compose bind-mounts the key file with its owner and mode from the host, so the nodes run as");
        Line(b, "# CAMCUBE_UID:CAMCUBE_GID (default 1000:1000): export CAMCUBE_UID=$(id -u) CAMCUBE_GID=$(id -g)");
        Line(b, "# when the key file's owner is another user.");
        Line(b, "");
        Line(b, "services:");
        for (long i = 0; i < shape.ServerCount; i++)
        {
            var c = shape.CoordinateAt(i);
            var name = HostName(c);
            if (i > 0)
            {
                Line(b, "");
            }

            Line(b, $"  {name}:");
            Line(b, $"    image: \"{image}\"");
            Line(b, $"    hostname: {name}");
            if (program is null)
            {
                Line(b, "    command: [\"node\"]");
            }

            Line(b, "    user: \"${CAMCUBE_UID:-1000}:${CAMCUBE_GID:-1000}\"");
            Line(b, "    environment:");
            Line(b, string.Create(inv, $"      CAMCUBE__SHAPE: \"{shape}\""));
            Line(b, string.Create(inv, $"      CAMCUBE__COORDINATE: \"{c.X},{c.Y},{c.Z}\""));
            Line(b, string.Create(inv, $"      CAMCUBE__PEERS: \"cc-{{x}}-{{y}}-{{z}}:{port}\""));
            Line(b, $"      CAMCUBE__KEYFILE: \"{KeyPathInContainer}\"");
            Line(b, $"      CAMCUBE__CONTROLSOCKET: \"{ControlSocketInContainer}\"");
            if (program is null)
            {
                Line(b, "      MEMCACHED__HOST: \"0.0.0.0\"");
                Line(b, string.Create(inv, $"      MEMCACHED__PORT: \"{ContainerMemcachedPort}\""));
                Line(b, "      KEYVALUE__HOST: \"0.0.0.0\"");
                Line(b, string.Create(inv, $"      KEYVALUE__PORT: \"{ContainerKeyValuePort}\""));
            }

            Line(b, "    secrets:");
            Line(b, "      - cluster_key");
            Line(b, "    networks:");
            Line(b, "      - cube");
            if (program is null)
            {
                Line(b, "    ports:");
                Line(b, string.Create(inv, $"      - \"127.0.0.1:{memcachedPort + i}:{ContainerMemcachedPort}/tcp\""));
                Line(b, string.Create(inv, $"      - \"127.0.0.1:{keyValuePort + i}:{ContainerKeyValuePort}/tcp\""));
            }

            Line(b, "    restart: unless-stopped");
            Line(b, "    healthcheck:");

            // The node's own health checks over its control socket: exit 0 while healthy or degraded.
            Line(b, $"      test: [\"CMD\", \"dotnet\", \"{program ?? BuiltInProgram}\", \"health\"]");
            Line(b, "      interval: 10s");
            Line(b, "      timeout: 10s");
            Line(b, "      retries: 3");
            Line(b, "      start_period: 20s");
        }

        Line(b, "");
        Line(b, "networks:");
        Line(b, "  cube:");
        Line(b, "    driver: bridge");
        Line(b, "");
        Line(b, "secrets:");
        Line(b, "  cluster_key:");
        Line(b, $"    file: ./{KeyFileRelative}");
        return b.ToString();
    }

    private static void Line(StringBuilder builder, string text) => builder.Append(text).Append('\n');

    private static void WriteNewKey(string path)
    {
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        var options = new FileStreamOptions { Mode = FileMode.CreateNew, Access = FileAccess.Write };
        if (!OperatingSystem.IsWindows())
        {
            options.UnixCreateMode = UnixFileMode.UserRead | UnixFileMode.UserWrite;
        }

        var bytes = RandomNumberGenerator.GetBytes(32);
        try
        {
            using var stream = new FileStream(path, options);
            stream.Write(Encoding.ASCII.GetBytes(Convert.ToHexStringLower(bytes) + "\n"));
        }
        finally
        {
            CryptographicOperations.ZeroMemory(bytes);
        }
    }
}
