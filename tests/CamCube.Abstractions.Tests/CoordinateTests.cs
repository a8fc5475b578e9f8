namespace CamCube.Abstractions.Tests;

public class CoordinateTests
{
    [Theory]
    [InlineData("1,2,0", 1, 2, 0)]
    [InlineData("(1,2,0)", 1, 2, 0)]
    [InlineData(" 10, 20 ,30 ", 10, 20, 30)]
    public void ParseReadsCommaSeparatedTriples(string text, int x, int y, int z) =>
        Assert.Equal(new Coordinate(x, y, z), Coordinate.Parse(text));

    [Theory]
    [InlineData("1,2")]
    [InlineData("1,2,3,4")]
    [InlineData("1,-2,3")]
    [InlineData("a,b,c")]
    [InlineData("")]
    public void ParseRejectsMalformedCoordinates(string text)
    {
        var ex = Assert.Throws<FormatException>(() => Coordinate.Parse(text));
        Assert.Contains("1,2,0", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void ToStringRoundTrips() => Assert.Equal(new Coordinate(4, 5, 6), Coordinate.Parse(new Coordinate(4, 5, 6).ToString()));

    [Fact]
    public void LinkDirectionHelpersAgree()
    {
        for (var d = 0; d < LinkDirections.Count; d++)
        {
            var direction = (LinkDirection)d;
            Assert.Equal(direction, LinkDirections.Of(direction.AxisOf(), direction.SignOf()));
            Assert.Equal(direction, direction.Opposite().Opposite());
            Assert.NotEqual(direction, direction.Opposite());
            Assert.Equal(direction.AxisOf(), direction.Opposite().AxisOf());
        }
    }
}
