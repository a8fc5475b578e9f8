using System.Text;

namespace CamCube.Cli;

/// <summary>The <c>camcube</c> entry point.</summary>
internal static class Program
{
    private static int Main(string[] args)
    {
        // Buffered output: the bulk path of 'camcube key -' prints thousands of lines a second.
        using var stdout = new StreamWriter(Console.OpenStandardOutput(), new UTF8Encoding(false), 1 << 16) { AutoFlush = false };
        using var stdinBytes = Console.OpenStandardInput();
        using var stdin = new StreamReader(stdinBytes, Encoding.UTF8, false, 1 << 16);
        try
        {
            return CliApp.Run(RawArguments.Recover(args, RawArguments.ReadProcCommandLine), new CliConsole(stdin, stdout, Console.Error, stdinBytes, stdout.BaseStream));
        }
        finally
        {
            stdout.Flush();
        }
    }
}
