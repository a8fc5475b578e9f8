using System.Net;
using System.Net.Sockets;

namespace CamCube.Transport.Udp.Tests;

public sealed class UdpPeerAddressingTests
{
    private static readonly TorusShape s_shape = new(3, 3, 3);

    [Fact]
    public void BasePortGivesEachServerBasePlusItsIndexOnLoopback()
    {
        var addressing = UdpPeerAddressing.FromBasePort(7000);

        Assert.Equal(new IPEndPoint(IPAddress.Loopback, 7000), addressing.Resolve(s_shape, new Coordinate(0, 0, 0)));
        Assert.Equal(new IPEndPoint(IPAddress.Loopback, 7000 + 1 + (3 * 2) + (9 * 1)), addressing.Resolve(s_shape, new Coordinate(1, 2, 1)));
        Assert.Equal(new IPEndPoint(IPAddress.Loopback, 7026), addressing.GetBindEndPoint(s_shape, new Coordinate(2, 2, 2)));
    }

    [Fact]
    public void BasePortThatRunsPastTheLastPortIsRefused()
    {
        var addressing = UdpPeerAddressing.FromBasePort(65_530);

        var ex = Assert.Throws<ArgumentOutOfRangeException>(() => addressing.Resolve(s_shape, new Coordinate(2, 2, 2)));
        Assert.Contains("choose a lower base port", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void HostPatternReplacesTheCoordinatesAndTheIndex()
    {
        var addressing = UdpPeerAddressing.FromHostPattern("cc-{x}-{y}-{z}.n{i}:7000");

        Assert.Equal("cc-1-2-0.n7", addressing.GetHost(s_shape, new Coordinate(1, 2, 0)));
        Assert.Equal(7000, addressing.GetPort(s_shape, new Coordinate(1, 2, 0)));
        Assert.Equal(new IPEndPoint(IPAddress.Any, 7000), addressing.GetBindEndPoint(s_shape, new Coordinate(1, 2, 0)));
    }

    [Fact]
    public void HostPatternResolvesNamesWithDns()
    {
        var addressing = UdpPeerAddressing.FromHostPattern("localhost:7000");

        var endPoint = addressing.Resolve(s_shape, new Coordinate(0, 0, 0));

        Assert.True(IPAddress.IsLoopback(endPoint.Address));
        Assert.Equal(AddressFamily.InterNetwork, endPoint.AddressFamily);
        Assert.Equal(7000, endPoint.Port);
    }

    [Theory]
    [InlineData("7000", "127.0.0.1+7000")]
    [InlineData("10.0.0.5+7100", "10.0.0.5+7100")]
    [InlineData("cc-{x}-{y}-{z}:7000", "cc-{x}-{y}-{z}:7000")]
    public void ParseReadsEachForm(string text, string expected)
    {
        Assert.Equal(expected, UdpPeerAddressing.Parse(text).ToString());
    }

    [Theory]
    [InlineData("cc-{x}")]
    [InlineData("cc-{x}:99999")]
    [InlineData(":7000")]
    public void ParseRefusesAPatternWithoutAValidPort(string text)
    {
        var ex = Assert.Throws<FormatException>(() => UdpPeerAddressing.Parse(text));
        Assert.Contains("host:port", ex.Message, StringComparison.Ordinal);
    }
}
