using CamCube.Testing;

namespace CamCube.Messaging.Tests;

/// <summary>A node restarted with the same seed draws the same random numbers as in its previous life; its request ids must still be new.</summary>
public sealed class RestartedAskerTests
{
    private static readonly TorusShape s_shape = new(3, 3, 3);
    private static readonly Coordinate s_asker = new(0, 0, 0);
    private static readonly Coordinate s_responder = new(1, 1, 1);

    [Fact]
    public async Task RestartedAskerTakesItsOwnReplyNotTheLateReplyToItsPreviousLifesRequest()
    {
        var cube = SimulatedCube.Start(s_shape, n => n.Register(new EchoService()), new SimulatedCubeOptions { Seed = 5 });
        var first = cube[s_asker].GetService<EchoService>()!.WaitServerAsync(s_responder, "first life", 500, TimeSpan.FromSeconds(5));
        cube.RunFor(TimeSpan.FromMilliseconds(10));

        Assert.True(cube.Kill(s_asker));
        cube.RunFor(TimeSpan.FromMilliseconds(10));
        cube.Restart(s_asker);
        Assert.True(cube.RunUntil(cube.ViewsConverged, TimeSpan.FromSeconds(5)));
        var second = cube[s_asker].GetService<EchoService>()!.WaitServerAsync(s_responder, "second life", 500, TimeSpan.FromSeconds(5));
        Assert.True(cube.RunUntil(() => second.IsCompleted, TimeSpan.FromSeconds(5)));

        // The first life's reply arrived first; with the same id it would have answered the second request.
        Assert.Equal("second life", (await second).Text);
        Assert.False(first.IsCompletedSuccessfully);
    }
}
