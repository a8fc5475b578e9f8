namespace CamCube.Messaging.Tests;

/// <summary>The echo service's id with an older set of handlers: notes only, so an echo request finds no handler.</summary>
public sealed class NotesOnlyService : MessagingServiceBase
{
    public NotesOnlyService()
        : base(EchoService.Id, "notes-only")
    {
        Handle<Note>(3, (note, context) => { });
    }
}
