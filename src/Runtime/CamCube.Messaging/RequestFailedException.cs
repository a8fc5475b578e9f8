namespace CamCube.Messaging;

/// <summary>A typed request or message failed: <see cref="Reason"/> says why, the message says where.</summary>
public sealed class RequestFailedException : Exception
{
    /// <summary>Creates the exception with a reason and a message.</summary>
    public RequestFailedException(RequestFailure reason, string message)
        : base(message)
    {
        Reason = reason;
    }

    /// <summary>Creates the exception for <see cref="RequestFailure.HandlerFault"/> without a reason (serializers need this constructor).</summary>
    public RequestFailedException()
        : this(RequestFailure.HandlerFault, "The request failed.")
    {
    }

    /// <summary>Creates the exception for <see cref="RequestFailure.HandlerFault"/> with a message.</summary>
    public RequestFailedException(string message)
        : this(RequestFailure.HandlerFault, message)
    {
    }

    /// <summary>Creates the exception for <see cref="RequestFailure.HandlerFault"/> with a message and the exception behind it.</summary>
    public RequestFailedException(string message, Exception innerException)
        : base(message, innerException)
    {
        Reason = RequestFailure.HandlerFault;
    }

    /// <summary>Gets why the request failed.</summary>
    public RequestFailure Reason { get; }
}
