using System.Text;

namespace CamCube.Cli.Tests;

public sealed class RawArgumentsTests
{
    private static readonly byte[] s_commandLine = [.. "dotnet\0camcube.dll\0key\0"u8, 0x63, 0x61, 0x66, 0xE9, 0, .. "--json\0"u8];

    [Fact]
    public void RecoverGivesBackTheRawBytesOfAnArgumentThatIsNotUtf8()
    {
        var args = new[] { "key", Encoding.UTF8.GetString([0x63, 0x61, 0x66, 0xE9]), "--json" };
        var recovered = RawArguments.Recover(args, () => s_commandLine);
        Assert.Equal("key", recovered[0]);
        Assert.Equal([0x63, 0x61, 0x66, 0xE9], RawArguments.GetBytes(recovered[1]));
        Assert.Equal("--json", recovered[2]);
    }

    [Fact]
    public void RecoverLeavesArgumentsAloneWhenTheyAreValidUtf8()
    {
        var args = new[] { "key", "café" };
        var read = false;
        Assert.Same(args, RawArguments.Recover(args, () => { read = true; return null; }));
        Assert.False(read);
    }

    [Fact]
    public void RecoverLeavesArgumentsAloneWhenTheCommandLineDoesNotMatchThem()
    {
        var args = new[] { "key", "other\uFFFD", "--json" };
        Assert.Same(args, RawArguments.Recover(args, () => s_commandLine));
    }

    [Fact]
    public void GetBytesIsUtf8ForValidTextIncludingSurrogatePairs()
    {
        const string text = "k€y😀";
        Assert.Equal(Encoding.UTF8.GetBytes(text), RawArguments.GetBytes(text));
        Assert.Equal(text, RawArguments.Decode(Encoding.UTF8.GetBytes(text)));
    }
}
