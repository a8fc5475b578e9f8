using System.Diagnostics.CodeAnalysis;

namespace CamCube.Messaging;

/// <summary>
/// Answers a request in the upcall that brought it, when it can (a read of what the server holds):
/// true with the reply, or false to leave the request to the asynchronous handler, in a later turn of the loop.
/// </summary>
/// <typeparam name="TRequest">The request's type.</typeparam>
/// <typeparam name="TReply">The reply's type.</typeparam>
/// <param name="request">The request.</param>
/// <param name="context">Where it came from.</param>
/// <param name="reply">The reply, when answered.</param>
/// <returns>Whether the request was answered.</returns>
public delegate bool TryAnswerAtOnce<in TRequest, TReply>(TRequest request, MessageContext context, [MaybeNullWhen(false)] out TReply reply);
