namespace CamCube.Services.Reliable.Tests;

/// <summary>How one exchange ended, as its completion told it; counts the calls so that a second one shows.</summary>
internal sealed class ExchangeOutcome
{
    public static readonly ExchangeCompletion Completion = static (object? state, in ExchangeReply reply, ReliableTransferException? error) =>
    {
        var outcome = (ExchangeOutcome)state!;
        outcome.Calls++;
        outcome.Error = error;
        if (error is null)
        {
            outcome.Reply = reply.Body.ToArray();
            outcome.Source = reply.Source;
        }
    };

    public int Calls { get; private set; }

    public bool Ended => Calls > 0;

    public byte[]? Reply { get; private set; }

    public Coordinate Source { get; private set; }

    public ReliableTransferException? Error { get; private set; }

    /// <summary>Begins an exchange from <paramref name="endpoint"/> to <paramref name="server"/> and returns its outcome.</summary>
    public static ExchangeOutcome Ask(ReliableEndpoint endpoint, Coordinate server, byte[] request)
    {
        var outcome = new ExchangeOutcome();
        Assert.Null(endpoint.Request(server, request, Completion, outcome, out _));
        return outcome;
    }
}
