namespace CamCube.Transport.Udp.Tests;

public sealed class DatagramTrainTests : IDisposable
{
    private readonly UdpLink _link = NewLink(LinkDirection.PlusX);
    private readonly UdpLink _otherLink = NewLink(LinkDirection.PlusY);

    public void Dispose()
    {
        _link.Dispose();
        _otherLink.Dispose();
    }

    [Fact]
    public void DatagramsOfTheFirstOnesSizeJoinAndLieBackToBack()
    {
        var train = new DatagramTrain();
        for (var i = 0; i < 3; i++)
        {
            Assert.True(train.CanAppend(_link, 100));
            train.Append(_link, 100, frames: 2, frameBytes: 50).Fill((byte)(i + 1));
        }

        Assert.Equal(3, train.Count);
        Assert.Equal(300, train.Length);
        Assert.Equal(100, train.SegmentBytes);
        Assert.Same(_link, train.Link);
        Assert.All(train.Datagram(1).ToArray(), b => Assert.Equal(2, b));
        Assert.Equal((6, 150L), train.TotalFrames());
    }

    [Fact]
    public void AShorterDatagramJoinsAsTheLastOne()
    {
        var train = new DatagramTrain();
        train.Append(_link, 100, 1, 60);
        train.Append(_link, 40, 1, 4);

        Assert.Equal(40, train.Datagram(1).Length);
        Assert.False(train.CanAppend(_link, 40));
        Assert.False(train.CanAppend(_link, 100));
    }

    [Fact]
    public void ALongerDatagramOrAnotherLinkNeedsANewTrain()
    {
        var train = new DatagramTrain();
        train.Append(_link, 100, 1, 60);

        Assert.False(train.CanAppend(_link, 101));
        Assert.False(train.CanAppend(_otherLink, 100));
        Assert.Throws<InvalidOperationException>(() => train.Append(_otherLink, 100, 1, 60));
    }

    [Fact]
    public void ATrainHoldsAtMostTheLargestUdpPayload()
    {
        var train = new DatagramTrain();
        var size = 9_038;
        var fit = DatagramTrain.BytesMax / size;
        for (var i = 0; i < fit; i++)
        {
            train.Append(_link, size, 1, size - 38);
        }

        Assert.False(train.CanAppend(_link, size));
        Assert.True(train.CanAppend(_link, DatagramTrain.BytesMax - train.Length));
    }

    [Fact]
    public void ATrainHoldsAtMostTheKernelsSegmentsPerSend()
    {
        var train = new DatagramTrain();
        for (var i = 0; i < DatagramTrain.DatagramsMax; i++)
        {
            train.Append(_link, 40, 0, 0);
        }

        Assert.False(train.CanAppend(_link, 40));
    }

    [Fact]
    public void ClearEmptiesTheTrainForAnyLink()
    {
        var train = new DatagramTrain();
        train.Append(_link, 100, 1, 60);
        train.Append(_link, 40, 1, 4);

        train.Clear();

        Assert.Equal(0, train.Count);
        Assert.Equal(0, train.Length);
        Assert.Null(train.Link);
        Assert.True(train.CanAppend(_otherLink, 500));
    }

    private static UdpLink NewLink(LinkDirection direction) =>
        new(direction, direction.Opposite(), new System.Net.IPEndPoint(System.Net.IPAddress.Loopback, 9), new byte[32], new byte[32], framesInFlightMax: 8, datagramsInFlightMax: 8);
}
