namespace CamCube.Services.Reliable.Tests;

public sealed class ReliableOptionsTests
{
    [Fact]
    public void DefaultsAreValidAndBoundTheBackoffOfUnansweredCopiesAtFourTimesTheFirstTimeout()
    {
        var options = new ReliableOptions();

        options.Validate();

        Assert.Equal(4, options.ExchangeBackoffLimit);
    }

    [Theory]
    [InlineData(0)]
    [InlineData(-3)]
    public void ExchangeBackoffLimitBelowOneIsRefusedNamingTheOption(int limit)
    {
        var options = new ReliableOptions { ExchangeBackoffLimit = limit };

        var error = Assert.Throws<ArgumentOutOfRangeException>(options.Validate);

        Assert.Equal(nameof(ReliableOptions.ExchangeBackoffLimit), error.ParamName);
    }
}
