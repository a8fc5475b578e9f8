namespace CamCube.Services.KeyValue;

/// <summary>The store could not complete a call; <see cref="Reason"/> says why.</summary>
public sealed class KeyValueStoreException : Exception
{
    /// <summary>Creates the exception.</summary>
    public KeyValueStoreException()
        : this(KeyValueFailure.Unavailable, "The store could not complete the call.")
    {
    }

    /// <summary>Creates the exception with a message.</summary>
    /// <param name="message">What went wrong.</param>
    public KeyValueStoreException(string message)
        : this(KeyValueFailure.Unavailable, message)
    {
    }

    /// <summary>Creates the exception with a message and its cause.</summary>
    /// <param name="message">What went wrong.</param>
    /// <param name="innerException">The cause.</param>
    public KeyValueStoreException(string message, Exception innerException)
        : base(message, innerException)
    {
        Reason = KeyValueFailure.Unavailable;
    }

    /// <summary>Creates the exception with its reason and message.</summary>
    /// <param name="reason">Why the call failed.</param>
    /// <param name="message">What went wrong, for a person.</param>
    /// <param name="innerException">The cause, if any.</param>
    public KeyValueStoreException(KeyValueFailure reason, string message, Exception? innerException = null)
        : base(message, innerException)
    {
        Reason = reason;
    }

    /// <summary>Gets why the call failed.</summary>
    public KeyValueFailure Reason { get; }
}
