namespace CamCube.Abstractions.Tests;

public sealed class KeyCoordinateWireTests
{
    /// <summary>Gets key coordinates whose fields test the byte order: zeros, small values, the largest, and mixed bytes.</summary>
    public static TheoryData<int, int, int, int> WireCases { get; } = new()
    {
        { 0, 0, 0, 0 },
        { 7, 19, 2, 47 },
        { 65535, 0, 65535, 65535 },
        { 0x1234, 0xABCD, 0x00FF, 0xFF00 },
    };

    [Theory]
    [MemberData(nameof(WireCases))]
    public void WriteGivesFourBigEndianFieldsAndReadGivesTheCoordinateBack(int x, int y, int z, int w)
    {
        var key = new KeyCoordinate(x, y, z, (ushort)w);
        var bytes = new byte[KeyCoordinate.WireSizeBytes + 2];
        bytes.AsSpan().Fill(0xEE);

        key.Write(bytes.AsSpan(1));

        byte[] expected = [0xEE, (byte)(x >> 8), (byte)x, (byte)(y >> 8), (byte)y, (byte)(z >> 8), (byte)z, (byte)(w >> 8), (byte)w, 0xEE];
        Assert.Equal(expected, bytes);
        Assert.Equal(key, KeyCoordinate.Read(bytes.AsSpan(1)));
    }

    [Fact]
    public void ReadAndWriteRefuseSpansShorterThanEightBytes()
    {
        var bytes = new byte[KeyCoordinate.WireSizeBytes - 1];

        Assert.Throws<ArgumentOutOfRangeException>(() => KeyCoordinate.Read(bytes));
        Assert.Throws<ArgumentOutOfRangeException>(() => new KeyCoordinate(1, 2, 3, 4).Write(bytes));
    }
}
