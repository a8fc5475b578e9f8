namespace CamCube.Abstractions.Tests;

public class ReachabilityViewTests
{
    [Fact]
    public void SetReachableTracksCountAndVersion()
    {
        var view = new ReachabilityView(new TorusShape(3, 3, 3));
        Assert.Equal(27, view.ReachableCount);
        Assert.True(view.SetReachable(new(1, 1, 1), reachable: false));
        Assert.False(view.SetReachable(new(1, 1, 1), reachable: false));
        Assert.False(view.IsReachable(new(1, 1, 1)));
        Assert.Equal(26, view.ReachableCount);
        var version = view.Version;
        Assert.True(view.SetReachable(new(1, 1, 1), reachable: true));
        Assert.True(view.Version > version);
        Assert.Equal(27, view.ReachableCount);
    }

    [Fact]
    public void HugeShapesKeepASetOfFailures()
    {
        var shape = new TorusShape(65_536, 65_536, 2);
        var view = new ReachabilityView(shape);
        view.SetReachable(new(65_535, 3, 1), reachable: false);
        Assert.False(view.IsReachable(new(65_535, 3, 1)));
        Assert.True(view.IsReachable(new(65_535, 3, 0)));
        Assert.Equal(shape.ServerCount - 1, view.ReachableCount);
        var servers = KeySpace.For(shape).GetServersForKey(new KeyCoordinate(65_535, 3, 1, 0), 2, view);
        Assert.Equal([new(0, 3, 1), new(65_535, 4, 1)], servers);
    }

    [Fact]
    public void CoordinatesOutsideTheShapeAreUnreachableAndCannotBeSet()
    {
        var view = new ReachabilityView(new TorusShape(3, 3, 3));
        Assert.False(view.IsReachable(new(3, 0, 0)));
        Assert.Throws<ArgumentOutOfRangeException>(() => view.SetReachable(new(0, 0, 5), reachable: false));
    }

    [Fact]
    public void ResetMakesEveryServerReachable()
    {
        var shape = new TorusShape(4, 4, 4);
        var view = ReachabilityView.WithUnreachable(shape, [new(0, 0, 0), new(3, 3, 3)]);
        view.Reset();
        Assert.Equal(64, view.ReachableCount);
        Assert.True(view.IsReachable(new(3, 3, 3)));
    }
}
