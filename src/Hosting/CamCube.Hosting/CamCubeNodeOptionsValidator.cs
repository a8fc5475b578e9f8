using Microsoft.Extensions.Options;

namespace CamCube.Hosting;

/// <summary>Checks <see cref="CamCubeNodeOptions"/> when the host starts (<c>ValidateOnStart</c>): each failure is one line that names the setting.</summary>
internal sealed class CamCubeNodeOptionsValidator : IValidateOptions<CamCubeNodeOptions>
{
    /// <inheritdoc/>
    public ValidateOptionsResult Validate(string? name, CamCubeNodeOptions options)
    {
        try
        {
            _ = NodePlacement.Resolve(options);
            return ValidateOptionsResult.Success;
        }
        catch (CamCubeConfigurationException ex)
        {
            return ValidateOptionsResult.Fail(ex.Message);
        }
    }
}
