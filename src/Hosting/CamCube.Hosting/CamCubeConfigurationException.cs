namespace CamCube.Hosting;

/// <summary>A node's configuration is refused: the message is one line that names the setting and says what is wrong with it.</summary>
public sealed class CamCubeConfigurationException : InvalidOperationException
{
    /// <summary>Initializes a new instance of the <see cref="CamCubeConfigurationException"/> class.</summary>
    public CamCubeConfigurationException()
    {
    }

    /// <summary>Initializes a new instance of the <see cref="CamCubeConfigurationException"/> class.</summary>
    /// <param name="message">One line naming the setting, such as <c>CamCube:BasePort 65530: ...</c>.</param>
    public CamCubeConfigurationException(string message)
        : base(message)
    {
    }

    /// <summary>Initializes a new instance of the <see cref="CamCubeConfigurationException"/> class.</summary>
    /// <param name="message">One line naming the setting.</param>
    /// <param name="innerException">What the setting's check threw.</param>
    public CamCubeConfigurationException(string message, Exception innerException)
        : base(message, innerException)
    {
    }
}
