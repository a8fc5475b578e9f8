namespace CamCube.Messaging;

/// <summary>A request of type <typeparamref name="TRequest"/> that its asynchronous handler answers in a later turn of the loop.</summary>
internal sealed class LaterAnswer<TRequest, TReply>(MessagingServiceBase service, ReplyAddress address, TRequest request, MessageContext context, Func<TRequest, MessageContext, Task<TReply>> handler)
    : LaterAnswer(service, address, typeof(TRequest))
{
    /// <inheritdoc/>
    public override async Task AnswerAsync()
    {
        TReply reply;
        try
        {
            // Resumes on the loop through the loop's synchronisation context, current while posted work runs.
            reply = await handler(request, context).ConfigureAwait(true);
        }
#pragma warning disable CA1031 // Whatever the handler throws goes back to the asker as the reason its request failed.
        catch (Exception ex)
#pragma warning restore CA1031
        {
            Service.ReplyFault(this, ex);
            return;
        }

        Service.ReplyIfRegistered(Address, reply, RequestType);
    }
}
