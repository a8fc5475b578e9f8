namespace CamCube.Integration.Tests;

/// <summary>
/// The clients of a history test, each issuing one request after another on a thread of its own
/// until stopped (or after 20,000 requests, so that a test that never stops them still ends).
/// </summary>
/// <typeparam name="TClient">A client that keeps its own history.</typeparam>
internal sealed class HistoryClients<TClient> : IAsyncDisposable
    where TClient : IDisposable
{
    private const int RequestsMax = 20_000;
    private readonly CancellationTokenSource _stop = new();
    private readonly Task[] _running;
    private readonly Func<TClient, int> _answered;
    private bool _stopped;

    /// <summary>Starts every client.</summary>
    /// <param name="clients">The clients.</param>
    /// <param name="runOne">Issues a client's next request and waits for its answer.</param>
    /// <param name="issued">How many requests a client issued.</param>
    /// <param name="answered">How many of a client's requests were answered.</param>
    public HistoryClients(IReadOnlyList<TClient> clients, Action<TClient> runOne, Func<TClient, int> issued, Func<TClient, int> answered)
    {
        Clients = clients;
        _answered = answered;
        _running = [.. clients.Select(client => Task.Factory.StartNew(
            () =>
            {
                while (!_stop.IsCancellationRequested && issued(client) < RequestsMax)
                {
                    runOne(client);
                }
            },
            CancellationToken.None,
            TaskCreationOptions.LongRunning,
            TaskScheduler.Default))];
    }

    /// <summary>Gets the clients.</summary>
    public IReadOnlyList<TClient> Clients { get; }

    /// <summary>Gets how many requests of all clients were answered so far.</summary>
    public int Answered => Clients.Sum(_answered);

    /// <summary>Waits until <paramref name="more"/> more requests were answered, and fails the test if they were not within a minute.</summary>
    /// <param name="more">How many more answers to wait for.</param>
    /// <param name="when">What just happened, for the failure's message.</param>
    /// <returns>How many were answered meanwhile.</returns>
    public int AwaitAnswers(int more, string when)
    {
        var before = Answered;
        Assert.True(Wait.Until(() => Answered >= before + more, TimeSpan.FromSeconds(60)), $"the clients got fewer than {more} answers {when}");
        return Answered - before;
    }

    /// <summary>Stops the clients after their requests in flight and closes their connections.</summary>
    public async Task StopAsync()
    {
        if (_stopped)
        {
            return;
        }

        _stopped = true;
        _stop.Cancel();
        await Task.WhenAll(_running).WaitAsync(TimeSpan.FromSeconds(60));
        foreach (var client in Clients)
        {
            client.Dispose();
        }
    }

    public async ValueTask DisposeAsync()
    {
        await StopAsync();
        _stop.Dispose();
    }
}
