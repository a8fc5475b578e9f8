namespace CamCube.Services.KeyValue.Messages;

/// <summary>What a <see cref="ClientRequest"/> asks of a key's primary.</summary>
public enum KeyValueOperation
{
    /// <summary>Read the key's value.</summary>
    Get = 0,

    /// <summary>Write the key's value when the condition holds.</summary>
    Put = 1,

    /// <summary>Delete the key's value when the condition holds.</summary>
    Delete = 2,
}
