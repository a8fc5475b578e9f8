namespace CamCube.Services.Reliable;

/// <summary>A reliable send that did not reach its peer; <see cref="Reason"/> says why.</summary>
public sealed class ReliableTransferException : Exception
{
    /// <summary>Creates an exception with no reason (for serializers and tools).</summary>
    public ReliableTransferException()
    {
    }

    /// <summary>Creates an exception with a message.</summary>
    public ReliableTransferException(string message)
        : base(message)
    {
    }

    /// <summary>Creates an exception with a message and its cause.</summary>
    public ReliableTransferException(string message, Exception innerException)
        : base(message, innerException)
    {
    }

    /// <summary>Creates an exception with its reason and a one-line message.</summary>
    public ReliableTransferException(ReliableFailure reason, string message)
        : base(message) => Reason = reason;

    /// <summary>Gets why the send failed.</summary>
    public ReliableFailure Reason { get; }
}
