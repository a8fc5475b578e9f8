using System.Text;

namespace CamCube.Fuzz;

/// <summary>The text targets' inputs: UTF-8 text, one command-line argument per line.</summary>
public static class TextArguments
{
    /// <summary>The most arguments one input gives.</summary>
    public const int ArgumentsMax = 64;

    /// <summary>Splits <paramref name="input"/> into arguments at line ends (a trailing empty line is not an argument).</summary>
    public static string[] Split(byte[] input)
    {
        var text = Encoding.UTF8.GetString(input);
        var lines = text.Split('\n');
        var count = lines.Length > 0 && lines[^1].Length == 0 ? lines.Length - 1 : lines.Length;
        return lines.Take(Math.Min(count, ArgumentsMax)).Select(l => l.TrimEnd('\r')).ToArray();
    }
}
