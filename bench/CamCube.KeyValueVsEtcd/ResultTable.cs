using System.Globalization;
using System.Text;

namespace CamCube.KeyValueVsEtcd;

/// <summary>The results as a Markdown table: per cell each target's throughput and p50/p99 latency, and each other target against the first.</summary>
internal static class ResultTable
{
    /// <summary>Formats the table.</summary>
    /// <param name="results">Every target's result in every cell.</param>
    /// <param name="targetNames">The targets, the baseline first.</param>
    /// <returns>The table, one line per cell.</returns>
    public static string Format(IReadOnlyList<CellResult> results, IReadOnlyList<string> targetNames)
    {
        var text = new StringBuilder();
        var header = new StringBuilder("| op | value B | conc. |");
        var rule = new StringBuilder("|---|--:|--:|");
        foreach (var name in targetNames)
        {
            header.Append(CultureInfo.InvariantCulture, $" {name} ops/s | {name} p50 / p99 ms | {name} CPU µs/op |");
            rule.Append("--:|--:|--:|");
        }

        foreach (var name in targetNames.Skip(1))
        {
            header.Append(CultureInfo.InvariantCulture, $" {name}/{targetNames[0]} ops/s | {name}/{targetNames[0]} p99 |");
            rule.Append("--:|--:|");
        }

        header.Append(" errors |");
        rule.Append("--:|");
        text.AppendLine(header.ToString()).AppendLine(rule.ToString());
        foreach (var cell in results.GroupBy(r => r.Spec))
        {
            var byTarget = cell.ToDictionary(r => r.Target, StringComparer.Ordinal);
            var line = new StringBuilder(string.Create(CultureInfo.InvariantCulture, $"| {cell.Key.Operation.ToString().ToLowerInvariant()} | {cell.Key.ValueBytes} | {cell.Key.Concurrency} |"));
            foreach (var name in targetNames)
            {
                line.Append(byTarget.TryGetValue(name, out var r)
                    ? string.Create(CultureInfo.InvariantCulture, $" {r.OperationsPerSecond:N0} | {r.Latency.Median / 1000:F2} / {r.Latency.P99 / 1000:F2} | {Cpu(r)} |")
                    : " - | - | - |");
            }

            var baseline = byTarget.GetValueOrDefault(targetNames[0]);
            foreach (var name in targetNames.Skip(1))
            {
                line.Append(byTarget.TryGetValue(name, out var r) && baseline is not null
                    ? string.Create(CultureInfo.InvariantCulture, $" {Ratio(r.OperationsPerSecond, baseline.OperationsPerSecond)} | {Ratio(r.Latency.P99, baseline.Latency.P99)} |")
                    : " - | - |");
            }

            line.Append(CultureInfo.InvariantCulture, $" {string.Join(" / ", targetNames.Select(n => byTarget.TryGetValue(n, out var r) ? r.Errors : 0))} |");
            text.AppendLine(line.ToString());
        }

        return text.ToString();
    }

    private static string Cpu(CellResult r) =>
        double.IsNaN(r.ServerCpuMicrosecondsPerOperation) ? "-" : r.ServerCpuMicrosecondsPerOperation.ToString("F0", CultureInfo.InvariantCulture);

    private static string Ratio(double value, double baseline) =>
        baseline > 0 && !double.IsNaN(value) ? string.Create(CultureInfo.InvariantCulture, $"{value / baseline:F2}x") : "-";
}
