namespace CamCube.Cli.Tests;

/// <summary>The dispatcher: help, and the one line that ends a command that failed in a way nobody foresaw.</summary>
public sealed class CliAppTests
{
    [Fact]
    public void HelpForAnUnknownCommandExitsWithUsageWhenTheTopicIsBogus()
    {
        var (exit, output, error) = CliRunner.Run("", "help", "bogus");
        Assert.Equal(2, exit);
        Assert.Equal("", output);
        Assert.Equal("camcube help: no command 'bogus'; the commands are key, cube, ping, kv, node, health, compose, sim.\n", error.ReplaceLineEndings("\n"));
    }

    [Fact]
    public void HelpForAKnownCommandPrintsItsUsageAndExitsZero()
    {
        var (exit, output, _) = CliRunner.Run("", "help", "cube");
        Assert.Equal(0, exit);
        Assert.StartsWith("usage: camcube cube", output, StringComparison.Ordinal);
    }

    [Fact]
    public void AnArgumentAfterDoubleDashIsNeverAHelpRequest()
    {
        // The command runs, and finds no front-end where nothing listens: it was not taken for help.
        var (exit, output, error) = CliRunner.Run("", "kv", "put", "k", "--server", "127.0.0.1:1", "--", "--help");

        Assert.Equal((1, ""), (exit, output));
        Assert.StartsWith("camcube kv: no key-value front-end answers on 127.0.0.1:1", error, StringComparison.Ordinal);
    }

    [Fact]
    public void HelpBeforeDoubleDashPrintsTheCommandsUsageAndExitsZero()
    {
        var (exit, output, _) = CliRunner.Run("", "kv", "put", "-h", "--", "-h");

        Assert.Equal(0, exit);
        Assert.StartsWith("usage: camcube kv", output, StringComparison.Ordinal);
    }

    [Fact]
    public void FirstLineDropsWhatFollowsTheFirstLineBreak()
    {
        Assert.Equal("Value out of range.", CliApp.FirstLine("Value out of range. \nParameter name: x\n   at Foo()"));
    }
}
