namespace CamCube.Cli;

/// <summary>
/// Reads a command's arguments: options (<c>--name value</c>, <c>--name=value</c>, flags) and
/// positional values, rejecting unknown options with a message that names them.
/// </summary>
internal sealed class ArgumentReader
{
    private readonly Dictionary<string, List<string>> _values = new(StringComparer.Ordinal);
    private readonly HashSet<string> _flags = new(StringComparer.Ordinal);

    public ArgumentReader(string command, IReadOnlyList<string> args, IReadOnlyCollection<string> valueOptions, IReadOnlyCollection<string> flagOptions)
    {
        var optionsEnded = false;
        for (var i = 0; i < args.Count; i++)
        {
            var arg = args[i];
            if (!optionsEnded && arg == "--")
            {
                optionsEnded = true;
                continue;
            }

            if (!optionsEnded && arg.Length == 2 && arg[0] == '-' && arg[1] != '-')
            {
                arg = ExpandShortOption(command, arg, valueOptions, flagOptions);
            }

            if (!optionsEnded && arg.Length > 2 && arg.StartsWith("--", StringComparison.Ordinal))
            {
                var equals = arg.IndexOf('=', StringComparison.Ordinal);
                var name = equals > 0 ? arg[..equals] : arg;
                if (flagOptions.Contains(name))
                {
                    if (equals > 0)
                    {
                        throw new UsageException($"{command}: option {name} takes no value.");
                    }

                    _flags.Add(name);
                }
                else if (valueOptions.Contains(name))
                {
                    string value;
                    if (equals > 0)
                    {
                        value = arg[(equals + 1)..];
                    }
                    else if (i + 1 < args.Count && !args[i + 1].StartsWith("--", StringComparison.Ordinal))
                    {
                        value = args[++i];
                    }
                    else
                    {
                        throw new UsageException($"{command}: option {name} needs a value.");
                    }

                    if (!_values.TryGetValue(name, out var list))
                    {
                        _values[name] = list = [];
                    }

                    list.Add(value);
                }
                else
                {
                    var known = string.Join(", ", valueOptions.Concat(flagOptions).Order(StringComparer.Ordinal));
                    throw new UsageException($"{command}: unknown option {name}; the options are {known}.");
                }
            }
            else
            {
                Positional.Add(arg);
            }
        }
    }

    public List<string> Positional { get; } = [];

    private static string ExpandShortOption(string command, string arg, IReadOnlyCollection<string> valueOptions, IReadOnlyCollection<string> flagOptions)
    {
        // A short option is the first letter of a long one, when exactly one long option starts with it.
        var matches = valueOptions.Concat(flagOptions).Where(o => o[2] == arg[1]).ToArray();
        return matches.Length == 1
            ? matches[0]
            : throw new UsageException($"{command}: unknown option {arg}; use the long form (camcube help {command}). A key that starts with '-' goes after '--'.");
    }

    public bool Flag(string name) => _flags.Contains(name);

    public IReadOnlyList<string> All(string name) => _values.TryGetValue(name, out var list) ? list : [];

    public string? Single(string name)
    {
        var all = All(name);
        return all.Count switch
        {
            0 => null,
            1 => all[0],
            _ => throw new UsageException($"option {name} was given {all.Count} times; give it once."),
        };
    }

    public int Int(string name, int defaultValue, int min, int max) => (int)Long(name, defaultValue, min, max);

    public long Long(string name, long defaultValue, long min, long max)
    {
        var text = Single(name);
        if (text is null)
        {
            return defaultValue;
        }

        if (!long.TryParse(text, System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out var value) || value < min || value > max)
        {
            throw new UsageException($"option {name}: '{text}' is not a whole number from {min} to {max}.");
        }

        return value;
    }

    public static TorusShape ParseShape(string text)
    {
        try
        {
            return TorusShape.Parse(text);
        }
        catch (FormatException ex)
        {
            throw new UsageException($"--shape: {ex.Message}");
        }
        catch (ArgumentOutOfRangeException ex)
        {
            throw new UsageException($"--shape '{text}': each axis must be from 1 to {TorusShape.AxisSizeMax}. {CliApp.FirstLine(ex.Message)}");
        }
    }

    public static Coordinate ParseCoordinate(string option, string text, TorusShape shape)
    {
        if (!Coordinate.TryParse(text, out var coordinate))
        {
            throw new UsageException($"{option}: '{text}' is not a coordinate; expected x,y,z such as 1,2,0.");
        }

        if (!shape.Contains(coordinate))
        {
            throw new UsageException($"{option}: {coordinate} is outside the torus {shape}; x, y, z must be at most {shape.X - 1}, {shape.Y - 1}, {shape.Z - 1}.");
        }

        return coordinate;
    }
}
