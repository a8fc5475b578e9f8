using Microsoft.Extensions.Logging;

namespace CamCube.Runtime.Tests;

/// <summary>Collects log lines in memory so tests can assert on them.</summary>
internal sealed class ListLoggerFactory : ILoggerFactory
{
    public List<(LogLevel Level, string Category, string Message)> Lines { get; } = [];

    public ILogger CreateLogger(string categoryName) => new ListLogger(this, categoryName);

    public void AddProvider(ILoggerProvider provider)
    {
    }

    public void Dispose()
    {
    }

    private sealed class ListLogger(ListLoggerFactory owner, string category) : ILogger
    {
        public IDisposable? BeginScope<TState>(TState state)
            where TState : notnull => null;

        public bool IsEnabled(LogLevel logLevel) => true;

        public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter) =>
            owner.Lines.Add((logLevel, category, formatter(state, exception)));
    }
}
