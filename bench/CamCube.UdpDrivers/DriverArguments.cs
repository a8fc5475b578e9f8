using System.Globalization;

namespace CamCube.UdpDrivers;

/// <summary>The <c>--name value</c> options of a driver command.</summary>
internal sealed class DriverArguments
{
    private readonly Dictionary<string, string> _values = new(StringComparer.Ordinal);

    public static DriverArguments Parse(ReadOnlySpan<string> args)
    {
        var result = new DriverArguments();
        for (var i = 0; i < args.Length; i++)
        {
            if (!args[i].StartsWith("--", StringComparison.Ordinal) || i + 1 >= args.Length)
            {
                throw new FormatException($"expected '--name value', got '{args[i]}'");
            }

            result._values[args[i][2..]] = args[++i];
        }

        return result;
    }

    public int Int(string name, int defaultValue, int min = 1) =>
        !_values.TryGetValue(name, out var text)
            ? defaultValue
            : int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var value) && value >= min
                ? value
                : throw new FormatException($"--{name} '{text}' is not a whole number of at least {min}");

    public string? Text(string name) => _values.GetValueOrDefault(name);
}
