namespace CamCube.Cli.Cube;

/// <summary>One node the supervisor runs: a child process, or a node inside the supervisor's own process.</summary>
internal interface INodeHandle
{
    Coordinate Self { get; }

    /// <summary>Gets the process id, or null when the node is not running (or runs in this process).</summary>
    int? ProcessId { get; }

    /// <summary>Gets the process id the node's control socket reports when this node (not an older one) answers.</summary>
    int? ControlProcessId { get; }

    bool IsRunning { get; }

    /// <summary>Completes once everything the node wrote before it exited is in its log (at once for a node in this process).</summary>
    Task LogCompleteAsync { get; }

    Task StartAsync(CancellationToken cancellationToken);

    /// <summary>Ends the node at once, as a crash: no goodbye to anyone.</summary>
    Task KillAsync();

    /// <summary>Stops the node cleanly.</summary>
    Task StopAsync(TimeSpan grace);
}
