using CamCube.Services;

namespace CamCube.Messaging.Tests;

/// <summary>A typed service in reliable mode: echoes blobs of any size back and counts each request its handler saw.</summary>
public sealed class ReliableEchoService : MessagingServiceBase
{
    public const ushort Id = 0x0052;

    public ReliableEchoService()
        : base(Id, "reliable echo", MessagingOptions.Reliable)
    {
        Handle<Blob, Blob>(1, (blob, context) =>
        {
            Handled.Add(blob.Id);
            return blob;
        });
        Handle<Note>(2, (note, context) => Notes.Add(note.Text));
    }

    /// <summary>Gets the ids of the requests this node's handler ran, in order.</summary>
    public List<int> Handled { get; } = [];

    public List<string> Notes { get; } = [];

    public Task<Blob> EchoAsync(Key key, Blob blob, TimeSpan timeout) => RequestAsync<Blob, Blob>(key, blob, timeout);

    public Task<Blob> EchoServerAsync(Coordinate server, Blob blob, TimeSpan timeout) => RequestServerAsync<Blob, Blob>(server, blob, timeout);

    public RouteStatus Note(Key key, string text) => Send(Node.KeySpace.KeyCoordinateOf(key), new Note { Text = text });
}
