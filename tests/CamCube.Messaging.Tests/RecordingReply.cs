using ProtoBuf;

namespace CamCube.Messaging.Tests;

/// <summary>A reusable pending reply that records what it hears and, while <see cref="Next"/> has texts, sends the next one from inside the call that told it.</summary>
public sealed class RecordingReply : PendingReply
{
    public List<string> Replies { get; } = [];

    public List<RequestFailedException> Failures { get; } = [];

    public Queue<string> Next { get; } = new();

    public Func<string, RecordingReply, RequestFailedException?>? Send { get; set; }

    protected override void OnReply(ReadOnlySpan<byte> body)
    {
        Replies.Add(Serializer.Deserialize<EchoReply>(body).Text);
        if (Next.TryDequeue(out var text))
        {
            Assert.Null(Send!(text, this));
        }
    }

    protected override void OnFailed(RequestFailedException error) => Failures.Add(error);
}
