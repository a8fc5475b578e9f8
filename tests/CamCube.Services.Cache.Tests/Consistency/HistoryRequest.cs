using System.Buffers;
using System.Text;
using CamCube.Services.Reliable;
using CamCube.Testing.Freshness;

namespace CamCube.Services.Cache.Tests.Consistency;

/// <summary>A request of a history: it records when it was invoked and when, and with what, it completed (virtual time, on the loop).</summary>
internal sealed class HistoryRequest : OutstandingRequest<CacheCall, CacheStatus>
{
    private readonly Action<HistoryRequest> _onCompleted;
    private byte[] _value = [];

    public HistoryRequest(int client, CacheOperation operation, string key, string? value, TimeSpan invokedAt, Action<HistoryRequest> onCompleted)
    {
        Client = client;
        KeyText = key;
        WrittenValue = value;
        Call = new CacheCall(operation, Encoding.ASCII.GetBytes(key), value is null ? default : new ReadOnlySequence<byte>(Encoding.ASCII.GetBytes(value)));
        InvokedAt = invokedAt;
        _onCompleted = onCompleted;
    }

    public int Client { get; }

    public CacheOperation Operation => Call.Operation;

    public string KeyText { get; }

    /// <summary>Gets the value a set writes; null for a get or a delete.</summary>
    public string? WrittenValue { get; }

    public TimeSpan InvokedAt { get; }

    public TimeSpan CompletedAt { get; set; } = TimeSpan.MaxValue;

    /// <summary>Gets the value a get returned on a hit.</summary>
    public string? ReadValue => Status == CacheStatus.Hit ? Encoding.ASCII.GetString(_value) : null;

    /// <summary>This request as the freshness checker reads it (times in ticks of virtual time).</summary>
    public CacheHistoryEntry ToEntry()
    {
        var operation = Operation switch
        {
            CacheOperation.Get => CacheHistoryOperation.Get,
            CacheOperation.Delete => CacheHistoryOperation.Delete,
            CacheOperation.Set => CacheHistoryOperation.Set,
            _ => throw new InvalidOperationException($"{Operation} has no place in a freshness history."),
        };
        var outcome = Status switch
        {
            CacheStatus.Hit => CacheHistoryOutcome.Hit,
            CacheStatus.Miss => CacheHistoryOutcome.Miss,
            CacheStatus.Stored or CacheStatus.Deleted or CacheStatus.NotFound => CacheHistoryOutcome.Acknowledged,
            _ => CacheHistoryOutcome.Unknown,
        };
        return new CacheHistoryEntry(Client, KeyText, operation, operation == CacheHistoryOperation.Set ? WrittenValue : ReadValue, outcome, InvokedAt.Ticks, CompletedAt.Ticks);
    }

    public override string ToString() =>
        $"client {Client} {Operation} {KeyText}{(WrittenValue is null ? "" : $"={WrittenValue}")} [{InvokedAt.TotalMilliseconds:F3} ms, {(CompletedAt == TimeSpan.MaxValue ? "never" : $"{CompletedAt.TotalMilliseconds:F3} ms")}] -> {Status}{(ReadValue is null ? "" : $" {ReadValue}")} after {Retransmissions} retransmissions";

    protected override Span<byte> ResponseBuffer(int length)
    {
        if (_value.Length != length)
        {
            _value = new byte[length];
        }

        return _value;
    }

    protected override void OnCompleted() => _onCompleted(this);
}
