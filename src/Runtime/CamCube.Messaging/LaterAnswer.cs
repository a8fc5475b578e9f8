namespace CamCube.Messaging;

/// <summary>A request that an asynchronous handler answers in a later turn of the loop: posted there as one object.</summary>
/// <param name="service">The service that answers.</param>
/// <param name="address">Where the reply goes.</param>
/// <param name="requestType">The request's type, for the messages of failures.</param>
internal abstract class LaterAnswer(MessagingServiceBase service, ReplyAddress address, Type requestType)
{
    /// <summary>Posted to the loop: runs the answer there.</summary>
    public static readonly Action<object?> Run = static state => _ = ((LaterAnswer)state!).AnswerAsync();

    /// <summary>Gets the service that answers.</summary>
    public MessagingServiceBase Service { get; } = service;

    /// <summary>Gets where the reply goes.</summary>
    public ReplyAddress Address { get; } = address;

    /// <summary>Gets the request's type.</summary>
    public Type RequestType { get; } = requestType;

    /// <summary>Runs the handler and sends its reply, or why it failed, through <see cref="Service"/>.</summary>
    public abstract Task AnswerAsync();
}
