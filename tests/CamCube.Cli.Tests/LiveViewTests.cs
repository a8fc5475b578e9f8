using CamCube.Cli.Cube;
using CamCube.Hosting.Control;

namespace CamCube.Cli.Tests;

/// <summary>The live view of `cube up`: one table per second, redrawn in a terminal, printed on change elsewhere.</summary>
public sealed class LiveViewTests
{
    private static readonly TorusShape s_shape = new(1, 1, 1);

    /// <summary>Runs the view over a series of frame counts; `cube down` arrives after the last.</summary>
    private static async Task<(string Output, int Polls)> WatchAsync(CubeCommand.LiveView view, params long[] sent)
    {
        var down = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var polls = 0;
        Task<(Coordinate Self, int? Pid, NodeStatus? Status)[]> Poll()
        {
            var i = polls++;
            if (i == sent.Length - 1)
            {
                down.TrySetResult();
            }

            return Task.FromResult(new[] { (new Coordinate(0, 0, 0), (int?)9, (NodeStatus?)StatusTableTests.NodeStatus(sent[i])) });
        }

        using var output = new StringWriter();
        var console = new CliConsole(TextReader.Null, output, TextWriter.Null);
        await CubeCommand.WatchAsync(Poll, s_shape, down.Task, console, view, new ElapsedTimeProvider(), CancellationToken.None).WaitAsync(TimeSpan.FromSeconds(30));
        return (output.ToString(), polls);
    }

    [Fact]
    public async Task PrintsTheTableOnlyWhenItChangesWhenOutputIsNotATerminal()
    {
        var (output, polls) = await WatchAsync(CubeCommand.LiveView.Changes, 5, 5, 5, 8, 8);
        Assert.Equal(5, polls);
        Assert.Equal(2, output.Split("nodes of 1x1x1 answering").Length - 1);
        Assert.Contains("         5         40", output, StringComparison.Ordinal);
        Assert.Contains("         8         40", output, StringComparison.Ordinal);
        Assert.DoesNotContain("\u001b[2J", output, StringComparison.Ordinal);
    }

    [Fact]
    public async Task RedrawsTheScreenEverySecondWhenOutputIsATerminal()
    {
        var (output, polls) = await WatchAsync(CubeCommand.LiveView.Screen, 5, 5, 5);
        Assert.Equal(3, polls);
        Assert.Equal(3, output.Split("\u001b[H\u001b[2J").Length - 1);
        Assert.Equal(3, output.Split("Ctrl-C stops the cube.").Length - 1);
    }

    [Fact]
    public async Task ShowsNothingAndStopsWhenDownIsAskedWithoutAView()
    {
        var down = Task.CompletedTask;
        using var output = new StringWriter();
        var polled = false;
        await CubeCommand.WatchAsync(
            () => { polled = true; return Task.FromResult(Array.Empty<(Coordinate, int?, NodeStatus?)>()); },
            s_shape,
            down,
            new CliConsole(TextReader.Null, output, TextWriter.Null),
            CubeCommand.LiveView.None,
            new ElapsedTimeProvider(),
            CancellationToken.None);
        Assert.False(polled);
        Assert.Equal("", output.ToString());
    }

    /// <summary>A clock whose every timer is already due: each second of the view passes at once.</summary>
    private sealed class ElapsedTimeProvider : TimeProvider
    {
        public override ITimer CreateTimer(TimerCallback callback, object? state, TimeSpan dueTime, TimeSpan period)
        {
            ThreadPool.QueueUserWorkItem(_ => callback(state));
            return new DoneTimer();
        }

        private sealed class DoneTimer : ITimer
        {
            public bool Change(TimeSpan dueTime, TimeSpan period) => true;

            public void Dispose()
            {
            }

            public ValueTask DisposeAsync() => ValueTask.CompletedTask;
        }
    }
}
