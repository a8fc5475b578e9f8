namespace CamCube.Services.KeyValue;

/// <summary>Why the store could not complete a call.</summary>
public enum KeyValueFailure
{
    /// <summary>None of the key's servers could be reached.</summary>
    Unavailable = 0,

    /// <summary>No answer came within the store's time limit; a write may or may not have taken effect.</summary>
    TimedOut = 1,

    /// <summary>The node stopped before the call completed.</summary>
    Shutdown = 2,

    /// <summary>The key's primary refused the call (for example, a value over its size limit).</summary>
    Rejected = 3,
}
