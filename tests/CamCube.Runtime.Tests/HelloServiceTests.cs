using CamCube.Testing;
using HelloService;

namespace CamCube.Runtime.Tests;

public class HelloServiceTests
{
    [Fact]
    public void QuestionReachesTheKeysRootAndTheAnswerComesBack()
    {
        var shape = new TorusShape(3, 3, 3);
        var cube = InMemoryCube.Start(shape, n => n.Register(new WhoOwnsService()));
        var asker = cube[new Coordinate(0, 0, 0)].GetService<WhoOwnsService>()!;
        asker.Ask("alpha");
        asker.Ask("beta");
        cube.RunUntilIdle();

        Assert.Equal(
            [("alpha", KeySpace.For(shape).GetServersForKey(Key.FromString("alpha"), 1)[0]), ("beta", KeySpace.For(shape).GetServersForKey(Key.FromString("beta"), 1)[0])],
            asker.Answers.OrderBy(a => a.Key, StringComparer.Ordinal));
    }

    [Fact]
    public void AfterTheRootFailsTheNextServerInItsListAnswers()
    {
        var shape = new TorusShape(3, 3, 3);
        var cube = InMemoryCube.Start(shape, n => n.Register(new WhoOwnsService()));
        var owners = KeySpace.For(shape).GetServersForKey(Key.FromString("alpha"), 2);
        cube.Kill(owners[0]);
        Assert.True(cube.RunUntil(cube.ViewsConverged, TimeSpan.FromSeconds(5)));
        var asker = cube.LiveNodes.First().GetService<WhoOwnsService>()!;
        asker.Ask("alpha");
        cube.RunUntilIdle();
        Assert.Equal(owners[1], Assert.Single(asker.Answers).Owner);
    }
}
