using System.Text;
using Microsoft.Extensions.Logging;

namespace CamCube.Fuzz.Tests;

/// <summary>The harness's own checks can fail: a finding is reported, not lost.</summary>
[Collection(FuzzTargetGroup.Name)]
public class FuzzHarnessTests
{
    [Fact]
    public void RunCheckedReportsAFindingWhenARunAllocatesPastTheBudget()
    {
        var target = new AllocatingTarget(FuzzTargets.AllocatedBytesBase + (1024 * 1024 * 8));

        var finding = Assert.Throws<FuzzFindingException>(() => FuzzTargets.RunChecked(target, [1, 2, 3]));

        Assert.StartsWith("allocating: an input of 3 bytes allocated ", finding.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void RunCheckedPassesWhenARunAllocatesWithinTheBudget()
    {
        FuzzTargets.RunChecked(new AllocatingTarget(1024 * 1024), [1, 2, 3]);
    }

    [Fact]
    public void ExceptionLogThrowsTheLoggedExceptionAsAFindingWhenTheProductLoggedOne()
    {
        var log = new ExceptionLog();
        var cause = new InvalidOperationException("index 9");
        log.Log(LogLevel.Debug, new EventId(2003), "connection ended with an error", cause, (s, _) => s);

        var finding = Assert.Throws<FuzzFindingException>(() => log.ThrowIfAny("memcached"));

        Assert.Same(cause, finding.InnerException);
        Assert.Equal("memcached: the product caught and logged an exception (connection ended with an error): InvalidOperationException: index 9", finding.Message);
        log.ThrowIfAny("memcached");
    }

    [Fact]
    public void ExceptionLogStaysQuietWhenOnlyMessagesWithoutExceptionsWereLogged()
    {
        var log = new ExceptionLog();
        log.Log(LogLevel.Warning, new EventId(1), "dropped a frame", null, (s, _) => s);

        log.ThrowIfAny("packet");
    }

    [Fact]
    public void SplitReturnsTheRecordsWhenGivenWhatJoinMade()
    {
        var input = InputRecords.Join((7, [1, 2, 3]), (0, []), (255, new byte[300]));

        var records = InputRecords.Split(input);

        Assert.Equal([7, 0, 255], records.Select(r => r.Control));
        Assert.Equal([3, 0, 300], records.Select(r => r.Body.Count));
        Assert.Equal([1, 2, 3], records[0].Body.ToArray());
    }

    [Fact]
    public void SplitCutsTheLastRecordWhenTheInputEndsInsideIt()
    {
        var records = InputRecords.Split([9, 0, 10, 1, 2]);

        var record = Assert.Single(records);
        Assert.Equal([1, 2], record.Body.ToArray());
    }

    [Fact]
    public void SplitStopsAtTheMostRecordsWhenGivenMore()
    {
        var input = InputRecords.Join(Enumerable.Range(0, InputRecords.RecordsMax + 5).Select(i => ((byte)i, new byte[] { 1 })).ToArray());

        Assert.Equal(InputRecords.RecordsMax, InputRecords.Split(input).Count);
    }

    [Fact]
    public void TextArgumentsAreTheLinesWithoutTheirEndsWhenGivenText()
    {
        Assert.Equal(["--shape", "3x3x3", "", "x"], TextArguments.Split(Encoding.UTF8.GetBytes("--shape\r\n3x3x3\n\nx\n")));
    }

    /// <summary>Allocates <paramref name="bytes"/> in 1 MiB arrays it drops at once.</summary>
    private sealed class AllocatingTarget(long bytes) : IFuzzTarget
    {
        public string Name => "allocating";

        public string Description => "allocates a fixed amount";

        public void Run(byte[] input)
        {
            for (long allocated = 0; allocated < bytes; allocated += 1024 * 1024)
            {
                GC.KeepAlive(new byte[1024 * 1024]);
            }
        }
    }
}
