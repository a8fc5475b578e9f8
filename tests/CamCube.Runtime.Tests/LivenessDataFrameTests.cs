using CamCube.Services;
using CamCube.Testing;

namespace CamCube.Runtime.Tests;

/// <summary>
/// Any frame that arrives on a link shows the neighbour alive, not only its heartbeat: on a loaded
/// host a heartbeat comes late behind data, and a link taken down while data still flows on it used
/// to make servers unreachable for a moment (writes under way failed, keys changed hands).
/// Here the neighbour at (1,0,0) sends its heartbeats ten times less often than (0,0,0) expects them.
/// </summary>
public class LivenessDataFrameTests
{
    private const ushort Probe = 0x0100;
    private static readonly Coordinate s_listener = new(0, 0, 0);
    private static readonly Coordinate s_slowSender = new(1, 0, 0);

    [Fact]
    public void LinkGoesDownBetweenLateHeartbeatsWhenNothingElseArrives()
    {
        var cube = StartWithSlowHeartbeats();

        cube.RunFor(TimeSpan.FromSeconds(3));

        Assert.Contains((LinkDirection.PlusX, false), Listener(cube).LinkChanges);
    }

    [Fact]
    public void LinkStaysUpBetweenLateHeartbeatsWhileDataFramesArrive()
    {
        var cube = StartWithSlowHeartbeats();
        var sender = cube[s_slowSender].GetService<RecordingService>()!;

        for (var i = 0; i < 30; i++)
        {
            Assert.Equal(RouteStatus.Queued, sender.SendToServer(s_listener, i));
            cube.RunFor(TimeSpan.FromMilliseconds(100));
        }

        Assert.DoesNotContain((LinkDirection.PlusX, false), Listener(cube).LinkChanges);
        Assert.True(cube[s_listener].IsLinkUp(LinkDirection.PlusX));
    }

    private static InMemoryCube StartWithSlowHeartbeats()
    {
        var cube = InMemoryCube.Start(new TorusShape(3, 3, 3), n =>
        {
            n.Register(new RecordingService(Probe, []));
            if (n.Self == s_slowSender)
            {
                n.Options.HeartbeatInterval = TimeSpan.FromSeconds(1);
                n.Options.HeartbeatTimeout = TimeSpan.FromSeconds(3.5);
            }
        });

        // The links came up with the first heartbeats; from here on what the listener sees is counted.
        cube.RunUntil(() => cube[s_listener].IsLinkUp(LinkDirection.PlusX), TimeSpan.FromSeconds(2));
        Listener(cube).LinkChanges.Clear();
        return cube;
    }

    private static RecordingService Listener(InMemoryCube cube) => cube[s_listener].GetService<RecordingService>()!;
}
