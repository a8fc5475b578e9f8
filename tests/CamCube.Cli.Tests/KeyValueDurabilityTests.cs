using CamCube.Cli.Cube;
using CamCube.Cli.Nodes;
using CamCube.Hosting;
using CamCube.Services.KeyValue.Storage;
using Microsoft.Extensions.Configuration;

namespace CamCube.Cli.Tests;

/// <summary>
/// What a node's SQLite commits have done when they return (<c>KeyValue:Durability</c>, <c>node
/// --kv-durability</c>) and the same on every node of a cube (<c>cube up --kv-durability</c>).
/// </summary>
[System.Runtime.Versioning.UnsupportedOSPlatform("windows")]
public sealed class KeyValueDurabilityTests : IDisposable
{
    private readonly TemporaryDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Theory]
    [InlineData(null, SqliteDurability.Synced)]
    [InlineData("fsync", SqliteDurability.Synced)]
    [InlineData("no-fsync", SqliteDurability.Written)]
    [InlineData("No-Fsync", SqliteDurability.Written)]
    public void NodeSettingsOpenTheDatabaseWithTheDurabilityConfigured(string? configured, SqliteDurability expected)
    {
        var settings = KeyValueNodeSettings.Read(Configuration(("KeyValue:Durability", configured), ("KeyValue:Directory", _directory.Path)));

        Assert.Equal(expected, settings.Durability);
        using var storage = Assert.IsType<SqliteKeyValueStorage>(settings.Open("0-0-0"));
        Assert.Equal(expected, storage.Durability);
    }

    [Fact]
    public void NodeSettingsRefuseAnUnknownDurabilityWithOneLine()
    {
        var error = Assert.Throws<CamCubeConfigurationException>(() => KeyValueNodeSettings.Read(Configuration(("KeyValue:Durability", "sometimes"))));

        Assert.Equal("KeyValue:Durability: 'sometimes' is neither fsync nor no-fsync.", error.Message);
    }

    [Fact]
    public void NodeSettingsRefuseNoFsyncForTheMemoryStorage()
    {
        var error = Assert.Throws<CamCubeConfigurationException>(() => KeyValueNodeSettings.Read(Configuration(("KeyValue:Durability", "no-fsync"), ("KeyValue:Storage", "memory"))));

        Assert.Equal("KeyValue:Durability: 'no-fsync' is for the sqlite storage; memory keeps nothing on disk.", error.Message);
    }

    [Fact]
    public void NodeCommandLineSetsTheDurability()
    {
        var reader = new ArgumentReader("node", ["--shape", "1x1x1", "--coord", "0,0,0", "--kv-durability", "no-fsync"], NodeArguments.ValueOptions, NodeArguments.FlagOptions);
        var configuration = new ConfigurationBuilder().AddInMemoryCollection(NodeArguments.Settings(reader)).Build();

        Assert.Equal(SqliteDurability.Written, KeyValueNodeSettings.Read(configuration).Durability);
    }

    [Fact]
    public void CubeUpGivesEveryNodeTheDurabilityWhenAskedAndNothingOtherwise()
    {
        var layout = new CubeLayout(Path.GetTempPath());
        var (asked, _) = CubeCommand.ReadUp(["--shape", "2x2x2", "--kv-durability", "no-fsync"]);
        var (notAsked, _) = CubeCommand.ReadUp(["--shape", "2x2x2"]);

        Assert.Equal(SqliteDurability.Written, asked.KeyValueDurability);
        Assert.Null(notAsked.KeyValueDurability);
        foreach (var node in Enumerable.Range(0, 8).Select(i => asked.Shape.CoordinateAt(i)))
        {
            Assert.Single(NodeLaunch.Arguments(node, layout, asked), "--KeyValue:Durability=no-fsync");
            Assert.Equal(SqliteDurability.Written, NodeLaunch.KeyValue(node, layout, asked).Durability);
            Assert.DoesNotContain(NodeLaunch.Arguments(node, layout, notAsked), argument => argument.StartsWith("--KeyValue:Durability", StringComparison.Ordinal));
            Assert.Equal(SqliteDurability.Synced, NodeLaunch.KeyValue(node, layout, notAsked).Durability);
        }
    }

    [Theory]
    [InlineData(new[] { "--kv-durability", "maybe" }, "--kv-durability: 'maybe' is neither fsync nor no-fsync.")]
    [InlineData(new[] { "--kv-durability", "no-fsync", "--kv-storage", "memory" }, "--kv-durability: only the sqlite storage has one; --kv-storage memory keeps nothing on disk.")]
    public void CubeUpRefusesADurabilityItCannotGiveWithOneLine(string[] arguments, string message)
    {
        var error = Assert.Throws<UsageException>(() => CubeCommand.ReadUp(["--shape", "2x2x2", .. arguments]));

        Assert.Equal(message, error.Message);
    }

    private static IConfiguration Configuration(params (string Name, string? Value)[] settings) =>
        new ConfigurationBuilder().AddInMemoryCollection(settings.Where(s => s.Value is not null).Select(s => new KeyValuePair<string, string?>(s.Name, s.Value))).Build();
}
