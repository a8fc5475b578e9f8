using Microsoft.Extensions.Logging;

namespace CamCube.Fuzz;

/// <summary>
/// A logger factory that keeps the first exception the product logs. The product catches what a
/// client or a service throws so that the node lives on, and logs it; under the fuzzer such an
/// exception is a finding all the same.
/// </summary>
public sealed class ExceptionLog : ILoggerFactory, ILogger
{
    private readonly Lock _gate = new();
    private Exception? _first;
    private string? _firstMessage;

    /// <summary>Throws a finding carrying the first exception logged since the last call, if any, and forgets it.</summary>
    /// <exception cref="FuzzFindingException">An exception was logged.</exception>
    public void ThrowIfAny(string target)
    {
        Exception? first;
        string? message;
        lock (_gate)
        {
            (first, message) = (_first, _firstMessage);
            (_first, _firstMessage) = (null, null);
        }

        if (first is not null)
        {
            throw new FuzzFindingException($"{target}: the product caught and logged an exception ({message}): {first.GetType().Name}: {first.Message}", first);
        }
    }

    /// <inheritdoc/>
    public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter)
    {
        ArgumentNullException.ThrowIfNull(formatter);
        if (exception is null)
        {
            return;
        }

        lock (_gate)
        {
            if (_first is null)
            {
                _first = exception;
                _firstMessage = formatter(state, exception);
            }
        }
    }

    /// <inheritdoc/>
    public bool IsEnabled(LogLevel logLevel) => true;

    /// <inheritdoc/>
    public IDisposable? BeginScope<TState>(TState state)
        where TState : notnull => null;

    /// <inheritdoc/>
    public ILogger CreateLogger(string categoryName) => this;

    /// <inheritdoc/>
    public void AddProvider(ILoggerProvider provider)
    {
    }

    /// <inheritdoc/>
    public void Dispose()
    {
    }
}
