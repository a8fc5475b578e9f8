namespace CamCube.KeyValueVsEtcd;

/// <summary>One worker's count in a cell: its completed operations' latencies, its errors and the first error's message.</summary>
internal sealed class WorkerTally
{
    /// <summary>The most errors in a row before the worker gives up on the cell.</summary>
    public const int ConsecutiveErrorsMax = 20;

    /// <summary>Gets the completed operations' latencies in microseconds.</summary>
    public List<double> LatenciesMicroseconds { get; } = [];

    /// <summary>Gets the number of failed operations.</summary>
    public int Errors { get; private set; }

    /// <summary>Gets the first error's message.</summary>
    public string? FirstError { get; private set; }

    /// <summary>Gets the number of errors since the last completed operation.</summary>
    public int ConsecutiveErrors { get; private set; }

    /// <summary>Counts a completed operation.</summary>
    /// <param name="microseconds">Its latency.</param>
    public void Completed(double microseconds)
    {
        LatenciesMicroseconds.Add(microseconds);
        ConsecutiveErrors = 0;
    }

    /// <summary>Counts a failed operation.</summary>
    /// <param name="message">What went wrong.</param>
    public void Failed(string message)
    {
        Errors++;
        ConsecutiveErrors++;
        FirstError ??= message;
    }
}
