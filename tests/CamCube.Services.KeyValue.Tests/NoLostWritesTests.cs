using CamCube.Services.KeyValue.Tests.Simulation;
using CamCube.Testing;
using Xunit.Abstractions;

namespace CamCube.Services.KeyValue.Tests;

public sealed class NoLostWritesTests(ITestOutputHelper output)
{
    private static readonly TorusShape s_shape = new(3, 3, 3);
    private static readonly Coordinate[] s_clientNodes = [new(0, 0, 0), new(1, 2, 0), new(2, 1, 1)];

    public static TheoryData<int> Seeds => [.. Enumerable.Range(100, 4)];

    [Theory]
    [MemberData(nameof(Seeds))]
    public async Task EveryAcknowledgedAddIsReadableAfterKillsRestartsAndCutOffsWhenTheCubeHeals(int seed)
    {
        var store = StoreCube.StartSimulated(s_shape, new SimulatedCubeOptions { Seed = seed }, RegisterWorkload.StoreOptions);
        var cube = (SimulatedCube)store.Cube;
        var random = new Random(seed);
        var faults = new FaultSchedule(cube, random, s_clientNodes, [.. Enumerable.Range(0, 27).Select(i => s_shape.CoordinateAt(i)).Except(s_clientNodes)], store.Wipe);
        var acknowledged = new Dictionary<Key, int>();
        var pending = new List<(Key Key, int Value, Task<WriteOutcome> Put)>();
        var end = cube.Elapsed + TimeSpan.FromSeconds(2);
        var nextFault = cube.Elapsed + TimeSpan.FromMilliseconds(50);
        var added = 0;
        while (cube.Elapsed < end)
        {
            foreach (var client in s_clientNodes)
            {
                var value = ++added;
                var key = Key.FromString($"set-{seed}-{value}");
                pending.Add((key, value, store[client].PutAsync(key, BitConverter.GetBytes(value), WriteCondition.IfAbsent)));
            }

            if (nextFault > cube.Elapsed)
            {
                cube.RunUntil(() => pending.All(p => p.Put.IsCompleted), nextFault - cube.Elapsed);
            }

            if (cube.Elapsed >= nextFault)
            {
                faults.Step();
                nextFault = cube.Elapsed + TimeSpan.FromMilliseconds(50 + random.Next(150));
            }

            cube.RunUntil(() => pending.All(p => p.Put.IsCompleted), TimeSpan.FromSeconds(3));
            foreach (var (key, value, put) in pending)
            {
                if (put.IsCompletedSuccessfully)
                {
                    Assert.Equal(WriteStatus.Written, (await put).Status);
                    acknowledged.Add(key, value);
                }
            }

            pending.Clear();
            cube.RunFor(TimeSpan.FromMilliseconds(2));
        }

        faults.HealAll();
        Assert.True(cube.RunUntil(cube.ViewsConverged, TimeSpan.FromSeconds(10)));
        cube.RunFor(TimeSpan.FromSeconds(1));
        output.WriteLine($"seed {seed}: {acknowledged.Count} of {added} adds acknowledged, {faults.Kills} kills ({faults.Wipes} back with an empty disk), {faults.Partitions} cut-offs");
        Assert.True(acknowledged.Count > added / 2, $"seed {seed}: only {acknowledged.Count} of {added} adds were acknowledged");
        Assert.True(faults.Kills + faults.Partitions >= 3, $"seed {seed}: too few faults");

        var reader = store[s_clientNodes[0]];
        foreach (var (key, value) in acknowledged)
        {
            var got = await store.Run(reader.GetAsync(key));
            Assert.True(got is not null, $"seed {seed}: acknowledged add {value} is lost");
            Assert.Equal(value, BitConverter.ToInt32(got.Value.Span));
        }
    }
}
