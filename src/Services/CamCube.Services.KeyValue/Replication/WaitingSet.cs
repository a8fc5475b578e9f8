using CamCube.Services.KeyValue.Messages;

namespace CamCube.Services.KeyValue.Replication;

/// <summary>An unconditional set of a key waiting at its primary to be written in one round with the others that waited with it (<see cref="KeyLane.Waiting"/>).</summary>
/// <param name="Request">The client's request.</param>
/// <param name="Asker">The server that asked (a front-end, or a service's node).</param>
internal sealed record WaitingSet(ClientRequest Request, Coordinate Asker)
{
    /// <summary>Gets the reply, once the round ended (or the request was answered without one).</summary>
    public TaskCompletionSource<ClientReply> Reply { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);
}
