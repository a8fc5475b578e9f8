using System.Globalization;
using BenchmarkDotNet.Attributes;

namespace CamCube.Benchmarks;

/// <summary>
/// Measures <see cref="KeySpace.GetServersForKey(KeyCoordinate, IReachabilityView, Span{Coordinate})"/>
/// per call, cycling over <see cref="KeyCount"/> key coordinates so that no single key stays hot.
/// The goal (foundation issue): 0 bytes allocated per call, and r = 3 without failures under 100 ns.
/// </summary>
[MemoryDiagnoser]
public class GetServersForKeyBenchmarks
{
    /// <summary>The number of distinct key coordinates one invocation cycles over.</summary>
    public const int KeyCount = 1024;

    private const int Seed = 20_240_601;

    private readonly Coordinate[] _destination = new Coordinate[3];
    private KeyCoordinate[] _keyCoordinates = [];
    private KeySpace _keySpace = null!;
    private IReachabilityView _view = null!;

    /// <summary>Gets or sets the torus shape, as <see cref="TorusShape.Parse"/> reads it.</summary>
    [Params("3x3x3", "20x20x20")]
    public string Shape { get; set; } = "3x3x3";

    /// <summary>Gets or sets the number of servers asked for.</summary>
    [Params(1, 3)]
    public int R { get; set; } = 1;

    /// <summary>Gets or sets the percentage of servers that are unreachable (chosen with a seeded random).</summary>
    [Params(0, 10)]
    public int FailedPercent { get; set; }

    /// <summary>Builds the keyspace, the view and the key coordinates, and grows the lazy tables for every key.</summary>
    [GlobalSetup]
    public void Setup()
    {
        var shape = TorusShape.Parse(Shape);
        _keySpace = KeySpace.For(shape);

        var view = new ReachabilityView(shape);
        var failures = (int)Math.Round(shape.ServerCount * FailedPercent / 100.0);
        var random = new Random(Seed);
        while (view.UnreachableCount < failures)
        {
            view.SetReachable(shape.CoordinateAt(random.NextInt64(shape.ServerCount)), reachable: false);
        }

        _view = view;

        _keyCoordinates = new KeyCoordinate[KeyCount];
        for (var i = 0; i < KeyCount; i++)
        {
            var key = Key.FromString("key-" + i.ToString(CultureInfo.InvariantCulture));
            _keyCoordinates[i] = _keySpace.KeyCoordinateOf(key);
        }

        // Warm the lazy offset tables to the length every key needs, so the measurement sees no growth.
        for (var i = 0; i < KeyCount; i++)
        {
            _keySpace.GetServersForKey(_keyCoordinates[i], _view, _destination.AsSpan(0, R));
        }
    }

    /// <summary>Calls GetServersForKey once per key coordinate; results are reported per call.</summary>
    [Benchmark(OperationsPerInvoke = KeyCount)]
    public int GetServersForKey()
    {
        var keySpace = _keySpace;
        var view = _view;
        var keyCoordinates = _keyCoordinates;
        var destination = _destination.AsSpan(0, R);
        var total = 0;
        for (var i = 0; i < keyCoordinates.Length; i++)
        {
            total += keySpace.GetServersForKey(keyCoordinates[i], view, destination);
        }

        return total + destination[0].X;
    }
}
