namespace CamCube.Services.KeyValue.Messages;

/// <summary>Why a server offers keys to another (camcubeos 5.2), which the statistics count apart.</summary>
public enum CopyReason
{
    /// <summary>The other server came back into the keys' replica sets: it catches up on what it missed.</summary>
    CatchUp = 0,

    /// <summary>The other server replaced one unreachable for t: it gets the keys to restore r copies.</summary>
    ReReplication = 1,
}
