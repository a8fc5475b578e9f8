namespace CamCube.Transport.Udp.Tests;

public sealed class ClusterKeyTests : IDisposable
{
    private const string Hex = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
    private readonly string _directory = Directory.CreateTempSubdirectory("camcube-key-").FullName;

    public void Dispose() => Directory.Delete(_directory, recursive: true);

    [Fact]
    public void FileOf32RawBytesIsTheKey()
    {
        var path = Write(Convert.FromHexString(Hex));

        Assert.Equal(Hex, ClusterKey.FromFile(path).ToHexString());
    }

    [Fact]
    public void FileOf64HexCharactersWithATrailingNewlineIsTheKey()
    {
        var path = Write(System.Text.Encoding.ASCII.GetBytes(Hex.ToUpperInvariant() + "\n"));

        Assert.Equal(Hex, ClusterKey.FromFile(path).ToHexString());
    }

    [Fact]
    public void FileOfTheWrongLengthIsRefusedWithAMessageThatSaysWhatIsExpected()
    {
        var path = Write(System.Text.Encoding.ASCII.GetBytes(Hex[..40] + "\n"));

        var ex = Assert.Throws<InvalidDataException>(() => ClusterKey.FromFile(path));

        Assert.Contains(path, ex.Message, StringComparison.Ordinal);
        Assert.Contains("found 40 characters", ex.Message, StringComparison.Ordinal);
        Assert.Contains("32 raw bytes nor 64 hexadecimal characters", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void FileWithANonHexCharacterIsRefusedWithItsPosition()
    {
        var path = Write(System.Text.Encoding.ASCII.GetBytes(Hex[..10] + "g" + Hex[11..]));

        var ex = Assert.Throws<InvalidDataException>(() => ClusterKey.FromFile(path));

        Assert.Contains("character 11 is not a hexadecimal digit", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void MissingFileIsRefusedWithHowToProvideAKey()
    {
        var path = Path.Combine(_directory, "absent.key");

        var ex = Assert.Throws<FileNotFoundException>(() => ClusterKey.FromFile(path));

        Assert.Contains(path, ex.Message, StringComparison.Ordinal);
        Assert.Contains(ClusterKey.DefaultEnvironmentVariable, ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void EnvironmentVariableHoldsHexOrIsAbsent()
    {
        var name = "CAMCUBE_TEST_KEY_" + Environment.ProcessId;
        try
        {
            Assert.Null(ClusterKey.FromEnvironment(name));

            Environment.SetEnvironmentVariable(name, " " + Hex + " ");
            Assert.Equal(Hex, ClusterKey.FromEnvironment(name)!.ToHexString());

            Environment.SetEnvironmentVariable(name, "not a key");
            var ex = Assert.Throws<FormatException>(() => ClusterKey.FromEnvironment(name));
            Assert.Contains(name, ex.Message, StringComparison.Ordinal);
            Assert.Contains("expected 64", ex.Message, StringComparison.Ordinal);
        }
        finally
        {
            Environment.SetEnvironmentVariable(name, null);
        }
    }

    [Fact]
    public void KeyOfTheWrongSizeIsRefusedAndAKeyNeverShowsInItsText()
    {
        Assert.Throws<ArgumentException>(() => ClusterKey.FromBytes(new byte[31]));
        Assert.DoesNotContain(Hex, ClusterKey.ParseHex(Hex).ToString(), StringComparison.Ordinal);
        Assert.NotEqual(ClusterKey.CreateRandom().ToHexString(), ClusterKey.CreateRandom().ToHexString());
    }

    private string Write(byte[] content)
    {
        var path = Path.Combine(_directory, "cluster.key");
        File.WriteAllBytes(path, content);
        return path;
    }
}
