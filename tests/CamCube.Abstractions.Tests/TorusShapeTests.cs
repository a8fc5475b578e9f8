namespace CamCube.Abstractions.Tests;

public class TorusShapeTests
{
    [Theory]
    [InlineData(0, 3, 3, "x")]
    [InlineData(3, 0, 3, "y")]
    [InlineData(3, 3, -1, "z")]
    [InlineData(3, 65_537, 3, "y")]
    public void ConstructorRejectsAxisOutsideRangeNamingIt(int x, int y, int z, string axis)
    {
        var ex = Assert.Throws<ArgumentOutOfRangeException>(() => new TorusShape(x, y, z));
        Assert.Equal(axis, ex.ParamName);
        Assert.Contains("from 1 to 65536", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void LargestAxisIsAccepted()
    {
        var shape = new TorusShape(65_536, 65_536, 65_536);
        Assert.Equal(281_474_976_710_656L, shape.ServerCount);
    }

    [Theory]
    [InlineData("3x3x3", 3, 3, 3)]
    [InlineData("20x20x20", 20, 20, 20)]
    [InlineData("5x4", 5, 4, 1)]
    [InlineData(" 7x5x3 ", 7, 5, 3)]
    public void ParseReadsShapes(string text, int x, int y, int z) =>
        Assert.Equal(new TorusShape(x, y, z), TorusShape.Parse(text));

    [Theory]
    [InlineData("3")]
    [InlineData("3x3x3x3")]
    [InlineData("ax3x3")]
    [InlineData("3x-3x3")]
    [InlineData("")]
    public void ParseRejectsMalformedShapes(string text)
    {
        var ex = Assert.Throws<FormatException>(() => TorusShape.Parse(text));
        Assert.Contains("XxYxZ", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void ParseRejectsZeroAxis() =>
        Assert.Throws<ArgumentOutOfRangeException>(() => TorusShape.Parse("3x0x3"));

    [Fact]
    public void DistanceWrapsAroundEachAxis()
    {
        var shape = new TorusShape(8, 8, 8);
        Assert.Equal(3, shape.Distance(new Coordinate(1, 1, 1), new Coordinate(0, 0, 0)));
        Assert.Equal(1, shape.Distance(new Coordinate(0, 0, 0), new Coordinate(7, 0, 0)));
        Assert.Equal(12, shape.Distance(new Coordinate(0, 0, 0), new Coordinate(4, 4, 4)));
        Assert.Equal(1, shape.AxisDistance(new Coordinate(1, 1, 1), new Coordinate(2, 3, 4), Axis.X));
        Assert.Equal(2, shape.AxisDistance(new Coordinate(1, 1, 1), new Coordinate(2, 3, 4), Axis.Y));
        Assert.Equal(3, shape.AxisDistance(new Coordinate(1, 1, 1), new Coordinate(2, 3, 4), Axis.Z));
    }

    [Fact]
    public void DistanceIsSymmetricAndObeysTriangleInequality()
    {
        var random = new Random(20261122);
        for (var trial = 0; trial < 2_000; trial++)
        {
            var shape = new TorusShape(random.Next(1, 12), random.Next(1, 12), random.Next(1, 12));
            var a = RandomCoordinate(random, shape);
            var b = RandomCoordinate(random, shape);
            var c = RandomCoordinate(random, shape);
            Assert.Equal(shape.Distance(a, b), shape.Distance(b, a));
            Assert.True(shape.Distance(a, c) <= shape.Distance(a, b) + shape.Distance(b, c));
            Assert.Equal(a == b, shape.Distance(a, b) == 0);
        }
    }

    [Fact]
    public void SymbioticRoutingSectionSevenHelperExamplesHold()
    {
        var shape = new TorusShape(8, 8, 8);
        Assert.Equal(3, shape.Distance(new KeyCoordinate(1, 1, 1, 0), new KeyCoordinate(0, 0, 0, 0)));
        Assert.Equal(1, shape.AxisDistance(new KeyCoordinate(1, 1, 1, 0), new KeyCoordinate(2, 3, 4, 0), Axis.X));
        Assert.Equal(new KeyCoordinate(0, 1, 0, 0), shape.NeighborKey(new KeyCoordinate(0, 0, 0, 0), Axis.Y, +1));
        Assert.Equal(new KeyCoordinate(0, 7, 0, 77), shape.NeighborKey(new KeyCoordinate(0, 0, 0, 77), Axis.Y, -1));
    }

    [Fact]
    public void NeighborStepsAndWraps()
    {
        var shape = new TorusShape(3, 3, 3);
        Assert.Equal(new Coordinate(0, 1, 0), shape.Neighbor(new(0, 0, 0), Axis.Y, +1));
        Assert.Equal(new Coordinate(2, 0, 0), shape.Neighbor(new(0, 0, 0), LinkDirection.MinusX));
        Assert.Equal(new Coordinate(0, 0, 0), shape.Neighbor(new(0, 0, 2), LinkDirection.PlusZ));
        Assert.Throws<ArgumentOutOfRangeException>(() => shape.Neighbor(new(0, 0, 0), Axis.X, 2));
    }

    [Fact]
    public void FullTorusHasSixDistinctNeighborsAtDistanceOne()
    {
        var shape = new TorusShape(3, 4, 5);
        Span<Coordinate> neighbors = stackalloc Coordinate[6];
        var count = shape.GetNeighbors(new(1, 2, 3), neighbors);
        Assert.Equal(6, count);
        Assert.Equal(6, neighbors.ToArray().Distinct().Count());
        foreach (var n in neighbors)
        {
            Assert.Equal(1, shape.Distance(new(1, 2, 3), n));
        }
    }

    [Theory]
    [InlineData(3, 3, 1, 4)]
    [InlineData(2, 3, 3, 5)]
    [InlineData(2, 2, 2, 3)]
    [InlineData(1, 1, 1, 0)]
    [InlineData(1, 2, 3, 3)]
    public void DegenerateAxesHaveNoDuplicateNeighbors(int x, int y, int z, int expected)
    {
        var shape = new TorusShape(x, y, z);
        Span<Coordinate> neighbors = stackalloc Coordinate[6];
        var count = shape.GetNeighbors(new(0, 0, 0), neighbors);
        Assert.Equal(expected, count);
        Assert.Equal(expected, shape.LinkCount);
        var distinct = neighbors[..count].ToArray().Distinct().ToArray();
        Assert.Equal(count, distinct.Length);
        Assert.DoesNotContain(new Coordinate(0, 0, 0), distinct);
    }

    [Fact]
    public void IndexOfAndCoordinateAtAreInverse()
    {
        var shape = new TorusShape(7, 5, 3);
        for (long i = 0; i < shape.ServerCount; i++)
        {
            Assert.Equal(i, shape.IndexOf(shape.CoordinateAt(i)));
        }

        Assert.Throws<ArgumentOutOfRangeException>(() => shape.CoordinateAt(105));
    }

    [Fact]
    public void EnsureContainsNamesTheCoordinateAndTheBounds()
    {
        var shape = new TorusShape(3, 3, 3);
        var ex = Assert.Throws<ArgumentOutOfRangeException>(() => shape.EnsureContains(new Coordinate(3, 0, 1)));
        Assert.Contains("(3,0,1)", ex.Message, StringComparison.Ordinal);
        Assert.Contains("3x3x3", ex.Message, StringComparison.Ordinal);
    }

    internal static Coordinate RandomCoordinate(Random random, TorusShape shape) =>
        new(random.Next(shape.X), random.Next(shape.Y), random.Next(shape.Z));
}
