using BenchmarkDotNet.Running;

namespace CamCube.Benchmarks;

/// <summary>Runs the benchmarks the command line selects, for example <c>--filter '*KeySpace*'</c>.</summary>
public static class Program
{
    /// <summary>Entry point.</summary>
    public static void Main(string[] args) => BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run(args);
}
