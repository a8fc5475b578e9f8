using SharpFuzz;

namespace CamCube.Fuzz;

/// <summary>
/// `dotnet CamCube.Fuzz.dll &lt;target&gt;` runs one target under afl-fuzz (SharpFuzz's out-of-process
/// fork server, reading each input from standard input; run alone it runs one input);
/// `--list` names the targets; `--replay &lt;target&gt; &lt;file or folder&gt;...` runs saved inputs and
/// says which find something; `--seeds &lt;folder&gt;` writes the binary targets' generated seeds.
/// </summary>
public static class Program
{
    /// <summary>The entry point; see the type's summary.</summary>
    public static int Main(string[] args)
    {
        ArgumentNullException.ThrowIfNull(args);
        switch (args)
        {
            case ["--list"]:
                foreach (var t in FuzzTargets.All)
                {
                    Console.WriteLine($"{t.Name,-14} {t.Description}");
                }

                return 0;
            case ["--replay", var name, .. var paths] when paths.Length > 0:
                return Replay(Target(name), paths);
            case ["--seeds", var folder]:
                SeedWriter.Write(folder);
                return 0;
            case [var name] when !name.StartsWith('-'):
                var target = Target(name);
                Fuzzer.OutOfProcess.Run(stream => FuzzTargets.RunChecked(target, FuzzTargets.ReadInput(stream)));
                return 0;
            default:
                Console.Error.WriteLine("usage: CamCube.Fuzz <target> | --list | --replay <target> <file|folder>... | --seeds <folder>");
                return 2;
        }
    }

    private static IFuzzTarget Target(string name) =>
        FuzzTargets.Find(name) ?? throw new ArgumentException($"no fuzz target '{name}'; targets: {string.Join(", ", FuzzTargets.All.Select(t => t.Name))}", nameof(name));

    private static int Replay(IFuzzTarget target, string[] paths)
    {
        var findings = 0;
        var files = paths.SelectMany(p => Directory.Exists(p) ? Directory.GetFiles(p).Order(StringComparer.Ordinal).ToArray() : [p]).ToArray();
        foreach (var file in files)
        {
            try
            {
                FuzzTargets.RunChecked(target, File.ReadAllBytes(file));
                Console.WriteLine($"ok       {file}");
            }
#pragma warning disable CA1031 // Every exception is what the replay reports.
            catch (Exception ex)
#pragma warning restore CA1031
            {
                findings++;
                Console.WriteLine($"FINDING  {file}: {ex}");
            }
        }

        Console.WriteLine($"{target.Name}: {files.Length} inputs, {findings} findings");
        return findings == 0 ? 0 : 1;
    }
}
