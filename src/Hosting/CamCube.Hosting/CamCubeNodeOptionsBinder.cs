using System.Reflection;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Options;

namespace CamCube.Hosting;

/// <summary>
/// Binds <see cref="CamCubeNodeOptions"/> from the section <see cref="CamCubeNodeOptions.SectionName"/>.
/// An unknown key (a typo would otherwise be ignored) or a value of the wrong type is kept as a
/// one-line error that <see cref="CamCubeNodeOptionsValidator"/> reports, naming the setting.
/// </summary>
internal sealed class CamCubeNodeOptionsBinder(IConfiguration configuration) : IConfigureOptions<CamCubeNodeOptions>
{
    private static readonly PropertyInfo[] s_settings = typeof(CamCubeNodeOptions)
        .GetProperties(BindingFlags.Public | BindingFlags.Instance)
        .Where(p => p.CanWrite)
        .ToArray();

    /// <summary>Gets the names of the settings, as they appear under the section.</summary>
    public static IReadOnlyList<string> SettingNames { get; } = s_settings.Select(p => p.Name).ToArray();

    /// <inheritdoc/>
    public void Configure(CamCubeNodeOptions options) => Bind(configuration.GetSection(CamCubeNodeOptions.SectionName), options);

    /// <summary>Binds <paramref name="section"/> onto <paramref name="options"/>, noting the first problem in <see cref="CamCubeNodeOptions.BindingError"/>.</summary>
    public static void Bind(IConfigurationSection section, CamCubeNodeOptions options)
    {
        foreach (var child in section.GetChildren())
        {
            if (!SettingNames.Contains(child.Key, StringComparer.OrdinalIgnoreCase))
            {
                options.BindingError = $"{child.Path}: unknown setting; the settings of {CamCubeNodeOptions.SectionName} are {string.Join(", ", SettingNames)}.";
                return;
            }
        }

        foreach (var property in s_settings)
        {
            var child = section.GetSection(property.Name);
            if (child.Value is null)
            {
                continue;
            }

            var type = Nullable.GetUnderlyingType(property.PropertyType) ?? property.PropertyType;
            try
            {
                property.SetValue(options, child.Get(type));
            }
            catch (InvalidOperationException)
            {
                options.BindingError = $"{child.Path}: '{child.Value}' is not {Describe(type)}.";
                return;
            }
        }
    }

    private static string Describe(Type type) =>
        type switch
        {
            var t when t == typeof(int) => "a whole number",
            var t when t == typeof(bool) => "true or false",
            var t when t == typeof(TimeSpan) => "a duration such as 00:00:00.100 (hours:minutes:seconds)",
            var t when t.IsEnum => "one of " + string.Join(", ", Enum.GetNames(t)),
            var t => "a " + t.Name,
        };
}
