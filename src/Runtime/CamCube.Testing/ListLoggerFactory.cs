using Microsoft.Extensions.Logging;

namespace CamCube.Testing;

/// <summary>Collects log lines in memory so tests can assert on them (give it to a test cube's options).</summary>
public sealed class ListLoggerFactory : ILoggerFactory
{
    /// <summary>Gets every line logged so far, with its level and category, in order.</summary>
    public List<(LogLevel Level, string Category, string Message)> Lines { get; } = [];

    /// <inheritdoc/>
    public ILogger CreateLogger(string categoryName) => new ListLogger(this, categoryName);

    /// <inheritdoc/>
    public void AddProvider(ILoggerProvider provider)
    {
    }

    /// <inheritdoc/>
    public void Dispose()
    {
    }

    private void Add((LogLevel Level, string Category, string Message) line)
    {
        lock (Lines)
        {
            Lines.Add(line);
        }
    }

    private sealed class ListLogger(ListLoggerFactory owner, string category) : ILogger
    {
        public IDisposable? BeginScope<TState>(TState state)
            where TState : notnull => null;

        public bool IsEnabled(LogLevel logLevel) => true;

        public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter) =>
            owner.Add((logLevel, category, formatter(state, exception)));
    }
}
