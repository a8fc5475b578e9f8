using System.Globalization;
using BenchmarkDotNet.Running;

namespace CamCube.Benchmarks;

/// <summary>
/// Runs the benchmarks the command line selects, for example <c>--filter '*KeySpace*'</c>, or the
/// alternating-batch overhead driver with <c>overhead [batches]</c>.
/// </summary>
public static class Program
{
    /// <summary>Entry point.</summary>
    public static void Main(string[] args)
    {
        ArgumentNullException.ThrowIfNull(args);
        if (args.Length > 0 && args[0] == "overhead")
        {
            var batches = 400;
            if (args.Length > 1 && (!int.TryParse(args[1], NumberStyles.None, CultureInfo.InvariantCulture, out batches) || batches < 10))
            {
                Console.Error.WriteLine($"overhead: the batch count must be a whole number of at least 10, not '{args[1]}'.");
                Environment.Exit(2);
            }

            OverheadDriver.Run(batches);
            return;
        }

        BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run(args);
    }
}
