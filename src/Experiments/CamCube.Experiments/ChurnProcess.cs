using CamCube.Testing;

namespace CamCube.Experiments;

/// <summary>
/// Server churn as camcubeos 4.2.5 describes it: failures arrive with exponential inter-failure
/// times of mean 1 / (churn rate / 2), each at a random live server, and a failed server rejoins
/// after a fixed failure duration, <c>failed fraction x servers / failure rate</c>, so that on
/// average the target fraction is failed. The run starts in that steady state: the target number
/// of servers are failed from the start, rejoining at uniformly spread times.
/// </summary>
internal sealed class ChurnProcess
{
    private readonly SimulatedCube _cube;
    private readonly DeliveryOracle _oracle;
    private readonly ChurnOptions _options;
    private readonly Random _random;
    private readonly double _failuresPerSecond;
    private readonly List<Coordinate> _initiallyFailed = [];
    private bool _running;
    private int _failedNow;
    private TimeSpan _lastChange;
    private TimeSpan _begin;
    private double _failedServerSeconds;

    public ChurnProcess(SimulatedCube cube, DeliveryOracle oracle, ChurnOptions options)
    {
        _cube = cube;
        _oracle = oracle;
        _options = options;
        _random = cube.Engine.CreateRandom(-2);
        _failuresPerSecond = options.ChurnRatePerSecond / 2;
        FailureDuration = TimeSpan.FromSeconds(options.FailedFraction * cube.Shape.ServerCount / _failuresPerSecond);
    }

    /// <summary>How often the oracle checks whether joins under way are known everywhere (1 ms of virtual time).</summary>
    public static readonly TimeSpan JoinCheckInterval = TimeSpan.FromMilliseconds(1);

    /// <summary>Gets how long a failed server stays down.</summary>
    public TimeSpan FailureDuration { get; }

    /// <summary>Gets how many servers failed, the initial ones included.</summary>
    public int Failures { get; private set; }

    /// <summary>Gets how many servers rejoined.</summary>
    public int Joins { get; private set; }

    /// <summary>Gets the time-averaged fraction of servers failed between <see cref="Begin"/> and <see cref="End"/>.</summary>
    public double MeanFailedFraction { get; private set; }

    /// <summary>Fails the target fraction of servers before the cube starts.</summary>
    public void FailInitially()
    {
        var target = (int)Math.Round(_options.FailedFraction * _cube.Shape.ServerCount);
        while (_initiallyFailed.Count < target)
        {
            var server = _cube.Shape.CoordinateAt(_random.NextInt64(_cube.Shape.ServerCount));
            if (_cube.Kill(server))
            {
                _initiallyFailed.Add(server);
                Failures++;
                _failedNow++;
            }
        }
    }

    /// <summary>Starts churning now: the initially failed servers rejoin at uniform times within one failure duration, and failures begin.</summary>
    public void Begin(TimeSpan end)
    {
        _running = true;
        _begin = _lastChange = _cube.Engine.Elapsed;
        foreach (var server in _initiallyFailed)
        {
            var rejoin = _begin + (FailureDuration * _random.NextDouble());
            if (rejoin < end)
            {
                _cube.Engine.At(rejoin, () => Join(server));
            }
        }

        ScheduleNextFailure();
        SettleJoinsPeriodically();
    }

    /// <summary>Stops churning: scheduled failures and joins no longer happen.</summary>
    public void End()
    {
        Account();
        _running = false;
        var span = (_cube.Engine.Elapsed - _begin).TotalSeconds;
        MeanFailedFraction = span > 0 ? _failedServerSeconds / span / _cube.Shape.ServerCount : (double)_failedNow / _cube.Shape.ServerCount;
    }

    /// <summary>Ends the joins every server knows of, every <see cref="JoinCheckInterval"/>, so that a join's hand-over lasts no longer than its news takes to spread.</summary>
    private void SettleJoinsPeriodically()
    {
        if (!_running)
        {
            return;
        }

        _oracle.SettleJoins();
        _cube.Engine.After(JoinCheckInterval, SettleJoinsPeriodically);
    }

    private void ScheduleNextFailure()
    {
        var wait = -Math.Log(1 - _random.NextDouble()) / _failuresPerSecond;
        _cube.Engine.After(TimeSpan.FromSeconds(wait), Fail);
    }

    private void Fail()
    {
        if (!_running)
        {
            return;
        }

        if (_failedNow < _cube.Shape.ServerCount)
        {
            Coordinate server;
            do
            {
                server = _cube.Shape.CoordinateAt(_random.NextInt64(_cube.Shape.ServerCount));
            }
            while (!_cube.IsAlive(server));

            Account();
            _cube.Kill(server);
            _oracle.OnFailed(server);
            Failures++;
            _failedNow++;
            _cube.Engine.After(FailureDuration, () => Join(server));
        }

        ScheduleNextFailure();
    }

    private void Join(Coordinate server)
    {
        if (!_running)
        {
            return;
        }

        Account();
        var node = _cube.Restart(server);
        _oracle.OnJoined(server);
        Joins++;
        _failedNow--;

        // A joining server starts its traffic once its links have had time to come up.
        _cube.Engine.After(_options.JoinQuiet, () =>
        {
            if (node.IsRunning)
            {
                node.GetService<KeyTrafficService>()?.Begin();
            }
        });
    }

    private void Account()
    {
        var now = _cube.Engine.Elapsed;
        _failedServerSeconds += _failedNow * (now - _lastChange).TotalSeconds;
        _lastChange = now;
    }
}
