using System.Text;
using CamCube.Services.KeyValue.Messages;
using ProtoBuf;

namespace CamCube.Services.KeyValue.Tests;

/// <summary>The read path's in-place decoding of a <see cref="ClientReply"/> reads what protobuf-net writes.</summary>
public sealed class ClientReplyViewTests
{
    [Theory]
    [InlineData(ReplyStatus.Served, 0L, false, 0, "")]
    [InlineData(ReplyStatus.Served, 1L << 40, true, 5, "")]
    [InlineData(ReplyStatus.Served, long.MaxValue, true, 3000, "")]
    [InlineData(ReplyStatus.Rejected, 0L, false, 0, "too large")]
    [InlineData(ReplyStatus.NotPrimary, 7L, false, 0, "")]
    public void ReadsEveryFieldProtobufNetWroteWhenTheReplyIsWhole(ReplyStatus status, long version, bool found, int valueBytes, string reason)
    {
        var value = new byte[valueBytes];
        new Random(valueBytes).NextBytes(value);
        var encoded = Encode(new ClientReply { Status = status, WriteStatus = WriteStatus.ConditionFailed, Version = version, Found = found, Value = value, Reason = reason });

        Assert.True(ClientReplyView.TryRead(encoded, out var reply));

        Assert.Equal((status, version, found, reason), (reply.Status, reply.Version, reply.Found, Encoding.UTF8.GetString(reply.Reason)));
        Assert.Equal(value, reply.Value.ToArray());
    }

    [Fact]
    public void FailsWhenTheReplyIsCutShort()
    {
        var encoded = Encode(new ClientReply { Found = true, Version = 3, Value = new byte[40] });

        Assert.False(ClientReplyView.TryRead(encoded.AsSpan(0, encoded.Length - 1), out _));
    }

    private static byte[] Encode(ClientReply reply)
    {
        using var stream = new MemoryStream();
        Serializer.Serialize(stream, reply);
        return stream.ToArray();
    }
}
