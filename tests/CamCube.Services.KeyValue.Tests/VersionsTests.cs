using CamCube.Services.KeyValue.Replication;

namespace CamCube.Services.KeyValue.Tests;

public sealed class VersionsTests
{
    [Fact]
    public void FirstWriteOfABallotStartsAboveEveryVersionOfLowerBallots()
    {
        var lastOfBallotOne = (1L << Versions.SequenceBits) | 500;
        var firstOfBallotTwo = Versions.Next(lastOfBallotOne, ballot: 2);
        Assert.Equal((2L << Versions.SequenceBits) | 1, firstOfBallotTwo);
        Assert.True(firstOfBallotTwo > lastOfBallotOne);
        Assert.Equal(2, Versions.BallotOf(firstOfBallotTwo));
    }

    [Fact]
    public void NextVersionWithinABallotIsOneMore()
    {
        var version = Versions.Next(0, ballot: 1);
        Assert.Equal((1L << Versions.SequenceBits) | 1, version);
        Assert.Equal(version + 1, Versions.Next(version, ballot: 1));
    }

    [Fact]
    public void NextIsZeroWhenTheBallotHasNoSequenceNumbersLeft()
    {
        var last = (3L << Versions.SequenceBits) | Versions.SequenceMax;
        Assert.Equal(0, Versions.Next(last, ballot: 3));
        Assert.Equal((4L << Versions.SequenceBits) | 1, Versions.Next(last, ballot: 4));
    }

    [Fact]
    public void NextThrowsWhenTheBallotIsBelowTheHeldVersionsBallot()
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => Versions.Next((5L << Versions.SequenceBits) | 1, ballot: 4));
    }
}
