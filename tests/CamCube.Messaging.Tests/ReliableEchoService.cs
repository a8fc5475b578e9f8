using CamCube.Services;

namespace CamCube.Messaging.Tests;

/// <summary>
/// A typed service in reliable mode: echoes blobs of any size back, grows small requests into large
/// replies, stalls on <see cref="Echo"/> (its handler never returns), and counts each request its handlers saw.
/// </summary>
public sealed class ReliableEchoService : MessagingServiceBase
{
    public const ushort Id = 0x0052;

    public ReliableEchoService()
        : this(MessagingOptions.Reliable)
    {
    }

    public ReliableEchoService(MessagingOptions options)
        : base(Id, "reliable echo", options)
    {
        Handle<Blob, Blob>(1, (blob, context) =>
        {
            Handled.Add(blob.Id);
            return blob;
        });
        Handle<Note>(2, (note, context) => Notes.Add(note.Text));
        HandleAsynchronously<Echo, EchoReply>(3, (echo, context) =>
        {
            Stalled++;
            return new TaskCompletionSource<EchoReply>().Task;
        });
        Handle<Grow, Blob>(4, (grow, context) =>
        {
            Handled.Add(grow.Id);
            var data = new byte[grow.Bytes];
            new Random(grow.Id).NextBytes(data);
            return new Blob { Id = grow.Id, Data = data };
        });
    }

    /// <summary>Gets the ids of the requests this node's handler ran, in order.</summary>
    public List<int> Handled { get; } = [];

    public List<string> Notes { get; } = [];

    /// <summary>Gets how many stalling requests reached the handler.</summary>
    public int Stalled { get; private set; }

    public Task<Blob> EchoAsync(Key key, Blob blob, TimeSpan timeout) => RequestAsync<Blob, Blob>(key, blob, timeout);

    public Task<Blob> EchoServerAsync(Coordinate server, Blob blob, TimeSpan timeout) => RequestServerAsync<Blob, Blob>(server, blob, timeout);

    public Task<Blob> GrowServerAsync(Coordinate server, Grow grow, TimeSpan timeout) => RequestServerAsync<Grow, Blob>(server, grow, timeout);

    public Task<EchoReply> StallServerAsync(Coordinate server, TimeSpan timeout) => RequestServerAsync<Echo, EchoReply>(server, new Echo { Text = "stall" }, timeout);

    public RouteStatus Note(Key key, string text) => Send(Node.KeySpace.KeyCoordinateOf(key), new Note { Text = text });
}
