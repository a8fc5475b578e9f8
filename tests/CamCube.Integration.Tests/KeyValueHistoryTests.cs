using System.Globalization;
using System.Text;
using CamCube.Testing.Linearizability;
using Xunit.Abstractions;

namespace CamCube.Integration.Tests;

/// <summary>
/// The store's promise of linearizability per key, on the 27-process cube: clients on five nodes'
/// memcached front-ends read, write and swap one key while every node drops 3% of the frames it
/// receives, two of the key's three servers are killed with SIGKILL and restarted, one after the
/// other, and the primary is then cut off by its six cables and reconnected. The history (times
/// from one monotonic clock on this host) is checked by <see cref="LinearizabilityChecker"/>.
/// </summary>
[Collection(SharedCube.Name)]
public sealed class KeyValueHistoryTests(CubeFixture cube, ITestOutputHelper output)
{
    private const string Key = "kvhist:register";
    private const int ClientsPerFrontEnd = 2;

    [Fact]
    public async Task RegisterHistoryThroughFiveFrontEndsIsLinearizableUnderLossWhileTheKeysServersAreKilledRestartedAndCutOff()
    {
        var servers = KeySpace.For(CubeFixture.Shape).GetServersForKey(CamCube.Key.Hash(Encoding.ASCII.GetBytes(Key)), 3);
        var frontEnds = Enumerable.Range(0, 27).Select(i => CubeFixture.Shape.CoordinateAt(i * 5 % 27)).Where(n => !servers.Contains(n)).Take(5).ToArray();
        var clients = Enumerable.Range(0, frontEnds.Length * ClientsPerFrontEnd)
            .Select(i => new MemcachedRegisterClient(i + 1, cube.KeyValuePort(frontEnds[i % frontEnds.Length]), Key, new Random(i)))
            .ToArray();
        await using var running = new HistoryClients<MemcachedRegisterClient>(clients, c => c.RunOne(), c => c.History.Count, c => c.Answered);
        var answeredWhileDown = 0;
        cube.DropEverywhere("0.03");
        try
        {
            running.AwaitAnswers(200, "before the kills");

            // The primary, then a replica as well: never more than r - 1 of the key's servers down.
            foreach (var victim in servers.Take(2))
            {
                Assert.Equal(0, Camcube.Run(cube.StateDirectory, "cube", "kill", Format(victim)).Exit);
                answeredWhileDown += running.AwaitAnswers(100, $"after {Format(victim)} was killed");
            }

            foreach (var victim in servers.Take(2))
            {
                Assert.Equal(0, Camcube.Run(cube.StateDirectory, "cube", "start", Format(victim)).Exit);
                running.AwaitAnswers(100, $"after {Format(victim)} restarted");
            }

            // The primary, back, is cut off by its six cables while it holds the key (and has granted
            // front-end leases): it must serve nothing the others' writes have replaced.
            var primary = servers[0];
            cube.CutOffWhile(primary, () => running.AwaitAnswers(100, $"after {Format(primary)} was cut off"));
            running.AwaitAnswers(100, $"after {Format(primary)} was reconnected");
        }
        finally
        {
            cube.DropEverywhere("0");
            await running.StopAsync();
        }

        Assert.True(cube.WaitFor(() => Enumerable.Range(0, 27).All(i => cube.Ask(CubeFixture.Shape.CoordinateAt(i), "status").GetProperty("reachable").GetInt32() == 27), TimeSpan.FromSeconds(30)), "the cube did not heal");
        var history = clients.SelectMany(c => c.History).ToList();
        var result = LinearizabilityChecker.Check(RegisterSpecification.Instance, history);
        output.WriteLine(string.Create(CultureInfo.InvariantCulture, $"{history.Count} operations, {running.Answered} answered ({answeredWhileDown} with servers down), {history.Count(o => !o.Completed)} writes of unknown outcome; {result}"));
        Assert.Equal(LinearizabilityVerdict.Linearizable, result.Verdict);
    }

    private static string Format(Coordinate c) => string.Create(CultureInfo.InvariantCulture, $"{c.X},{c.Y},{c.Z}");
}
