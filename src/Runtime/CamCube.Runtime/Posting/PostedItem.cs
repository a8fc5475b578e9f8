namespace CamCube.Runtime.Posting;

/// <summary>One piece of work posted to a service's mailbox: an <see cref="Action{T}"/> of object or a <see cref="SendOrPostCallback"/>, and its state.</summary>
internal readonly record struct PostedItem(object Callback, object? State);
