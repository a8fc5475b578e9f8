namespace CamCube.KeyValueVsEtcd.Tests;

/// <summary>The driver's etcd half against a real 3-member cluster of Debian's etcd-server (.ci/run installs it).</summary>
public sealed class EtcdClusterTests
{
    private const int PortBase = 24790;
    private static readonly TimeSpan s_startTimeout = TimeSpan.FromSeconds(60);

    [Fact]
    public async Task GetReturnsThePutValueAndCasChecksTheModRevisionWhenTheClusterIsUp()
    {
        await using var cluster = await EtcdCluster.StartAsync("etcd", PortBase, s_startTimeout);
        await using var target = new EtcdTarget(cluster.ClientUrls, cluster.ProcessIds);
        await using var client = await target.ConnectAsync(0, CancellationToken.None);

        var seen = await ClientRoundTrip.RunAsync(client, "round-trip", 128);

        Assert.Equal(EtcdCluster.MemberCount, cluster.ProcessIds.Count);
        Assert.True(seen.Version > 0, $"mod revision {seen.Version}");
        Assert.Equal(seen with { Version = 0 }, new ClientRoundTrip(0, 128, Swapped: true, StaleSwapped: false, seen.Version + 1, (0, 0)));
    }

    [Fact]
    public async Task ServerCpuFindsEachMemberByItsArgumentsAndCountsItsTimeWhenTheClusterIsUp()
    {
        await using var cluster = await EtcdCluster.StartAsync("etcd", PortBase + 300, s_startTimeout);

        var found = Enumerable.Range(0, EtcdCluster.MemberCount).Select(i => ServerCpu.Find(["--data-dir", Path.Combine(cluster.Directory, $"m{i}")]).Single());

        Assert.Equal(cluster.ProcessIds, found);
        Assert.True(ServerCpu.Seconds(cluster.ProcessIds) > 0, "etcd members used no CPU time to elect a leader");
        Assert.Equal(0, ServerCpu.Seconds([int.MaxValue]));
    }

    [Fact]
    public async Task DisposeStopsTheMembersAndDeletesTheirDataWhenTheClusterWasUp()
    {
        var cluster = await EtcdCluster.StartAsync("etcd", PortBase + 100, s_startTimeout);
        var pids = cluster.ProcessIds;
        var directory = cluster.Directory;

        await cluster.DisposeAsync();

        Assert.Equal(EtcdCluster.MemberCount, pids.Count);
        Assert.All(pids, pid => Assert.False(IsRunning(pid), $"etcd member pid {pid} still runs"));
        Assert.False(Directory.Exists(directory), directory);
    }

    [Fact]
    public async Task StartFailsWithTheInstallHintWhenTheBinaryIsMissing()
    {
        var error = await Assert.ThrowsAsync<InvalidOperationException>(() => EtcdCluster.StartAsync("/nonexistent/etcd", PortBase + 200, s_startTimeout));

        Assert.Contains("apt-get install etcd-server", error.Message, StringComparison.Ordinal);
    }

    private static bool IsRunning(int pid)
    {
        try
        {
            using var process = System.Diagnostics.Process.GetProcessById(pid);
            return !process.HasExited;
        }
        catch (ArgumentException)
        {
            return false;
        }
    }
}
