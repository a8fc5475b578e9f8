namespace CamCube.Cli.Tests;

/// <summary>
/// <c>camcube kv</c> command lines that are rejected before any connection: an option another verb
/// takes, a missing or extra positional, a bad --flags, --node with --server, a key too long; each
/// exits 2 with a first line that says what was wrong. The front-end address is one where nothing
/// listens, so a command that got as far as connecting would exit 1 instead.
/// </summary>
public sealed class KeyValueArgumentTests
{
    private const string NoFrontEnd = "127.0.0.1:1";

    [Theory]
    [InlineData("put k v --json", "kv put: option --json is only for kv get.")]
    [InlineData("get k --flags 3", "kv get: option --flags is only for kv put and kv cas.")]
    [InlineData("get k --if-absent", "kv get: option --if-absent is only for kv put.")]
    [InlineData("cas k 1 v --if-absent", "kv cas: option --if-absent is only for kv put.")]
    [InlineData("cas k 1 v --json", "kv cas: option --json is only for kv get.")]
    [InlineData("del k --flags 3", "kv del: option --flags is only for kv put and kv cas.")]
    [InlineData("del k --if-absent", "kv del: option --if-absent is only for kv put.")]
    [InlineData("del k --json", "kv del: option --json is only for kv get.")]
    [InlineData("put k", "kv put: give a key and a value.")]
    [InlineData("put", "kv put: give a key and a value.")]
    [InlineData("get", "kv get: give a key.")]
    [InlineData("cas k 1", "kv cas: give a key, a version and a value.")]
    [InlineData("del", "kv del: give a key.")]
    [InlineData("del k extra", "kv del: give a key.")]
    [InlineData("put k v --flags red", "option --flags: 'red' is not a whole number from 0 to 4294967295.")]
    [InlineData("put k v --flags -1", "option --flags: '-1' is not a whole number from 0 to 4294967295.")]
    [InlineData("cas k 1 v --flags 4294967296", "option --flags: '4294967296' is not a whole number from 0 to 4294967295.")]
    [InlineData("put k v --node 0,0,0", "kv put: give --node or --server, not both.")]
    public void ABadCommandLineExitsTwoAndSaysWhatWasWrong(string commandLine, string message)
    {
        var result = CliRunner.Run("", ["kv", .. commandLine.Split(' '), "--server", NoFrontEnd]);

        Assert.Equal((2, "", "camcube: " + message), FirstErrorLine(result));
    }

    [Theory]
    [InlineData(251, "k")]
    [InlineData(84, "€")]
    public void AKeyOverTwoHundredFiftyBytesExitsTwoAndSaysHowLongItIs(int count, string unit)
    {
        var key = string.Concat(Enumerable.Repeat(unit, count));
        var bytes = System.Text.Encoding.UTF8.GetByteCount(key);

        var result = CliRunner.Run("", "kv", "put", key, "v", "--server", NoFrontEnd);

        Assert.Equal((2, "", $"camcube: kv put: the key is {bytes} bytes long; a memcached key is at most 250 bytes."), FirstErrorLine(result));
    }

    [Fact]
    public void AKeyOfTwoHundredFiftyBytesIsAccepted()
    {
        var (exit, _, error) = CliRunner.Run("", "kv", "put", new string('k', 250), "v", "--server", NoFrontEnd);

        Assert.Equal(1, exit);
        Assert.StartsWith($"camcube kv: no key-value front-end answers on {NoFrontEnd}", error, StringComparison.Ordinal);
    }

    private static (int Exit, string Out, string FirstLine) FirstErrorLine((int Exit, string Out, string Error) result) =>
        (result.Exit, result.Out, result.Error.Split('\n')[0]);
}
