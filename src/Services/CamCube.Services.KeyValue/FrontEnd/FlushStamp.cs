using System.Buffers.Binary;

namespace CamCube.Services.KeyValue.FrontEnd;

/// <summary>
/// The last flush_all (<see cref="FlushMark"/>), kept in the store under a key no memcached key hashes to
/// (its name has a space), so every front-end sees it. A front-end reads it again at most every
/// <see cref="KeyValueFrontEndOptions.FlushCheckMilliseconds"/>, and knows its own flushes at once.
/// </summary>
internal sealed class FlushStamp
{
    private static readonly Key s_key = Key.Hash("camcube memcached flush_all"u8);

    private readonly IKeyValueStore _store;
    private readonly TimeProvider _time;
    private readonly long _checkTimestampTicks;
    private readonly object _gate = new();
    private FlushMark _mark;
    private long _checkedAt;
    private bool _checked;
    private Task<FlushMark>? _reading;

    /// <summary>Creates the stamp over a store.</summary>
    public FlushStamp(IKeyValueStore store, TimeProvider time, int checkMilliseconds)
    {
        _store = store;
        _time = time;
        _checkTimestampTicks = checkMilliseconds * time.TimestampFrequency / 1000;
    }

    /// <summary>Gets the last flush_all known here, without reading the store.</summary>
    public FlushMark LastKnown
    {
        get
        {
            lock (_gate)
            {
                return _mark;
            }
        }
    }

    /// <summary>Gets the last flush_all, reading it from the store when the copy here is older than the check interval.</summary>
    public ValueTask<FlushMark> CurrentAsync() => ReadToAwait() is { } reading ? new ValueTask<FlushMark>(reading) : new ValueTask<FlushMark>(LastKnown);

    /// <summary>
    /// Gets the read of the last flush_all that a get must await before it uses <see cref="LastKnown"/>, or null
    /// when the copy here is fresh (younger than the check interval). Once half the interval has passed a read
    /// starts in the background, so a steady stream of gets never waits for one.
    /// </summary>
    public Task<FlushMark>? ReadToAwait()
    {
        lock (_gate)
        {
            var age = _time.GetTimestamp() - _checkedAt;
            if (_checked && age < _checkTimestampTicks)
            {
                if (age >= _checkTimestampTicks / 2)
                {
                    StartReading();
                }

                return null;
            }

            return StartReading();
        }
    }

    /// <summary>Makes every item written up to <paramref name="delaySeconds"/> from now read as absent from then on.</summary>
    /// <exception cref="KeyValueStoreException">The store could not take the write.</exception>
    public async Task FlushAsync(int delaySeconds)
    {
        // The cutoff is after the last flush known here, as items written since are (KeyValueCommands.WrittenAt):
        // so a flush always hides what was written before it, even on a clock that has not moved on.
        var effectiveAt = _time.GetUtcNow().AddSeconds(delaySeconds).UtcTicks;
        var mark = new FlushMark(effectiveAt, Math.Max(effectiveAt, LastKnown.CutoffTicks + 1));
        var value = new byte[2 * sizeof(long)];
        BinaryPrimitives.WriteInt64BigEndian(value, mark.EffectiveAtTicks);
        BinaryPrimitives.WriteInt64BigEndian(value.AsSpan(sizeof(long)), mark.CutoffTicks);
        await _store.PutAsync(s_key, value).ConfigureAwait(ConfigureAwaitOptions.ForceYielding);
        lock (_gate)
        {
            _mark = mark;
            _checkedAt = _time.GetTimestamp();
            _checked = true;
        }
    }

    /// <summary>The read under way, or a new one; one that ended at once (the store failed at once) is not kept as under way.</summary>
    private Task<FlushMark> StartReading()
    {
        if (_reading is { } reading)
        {
            return reading;
        }

        reading = ReadAsync();
        if (!reading.IsCompleted)
        {
            _reading = reading;
        }

        return reading;
    }

    private async Task<FlushMark> ReadAsync()
    {
        var startedAt = _time.GetTimestamp();
        FlushMark read;
        try
        {
            var stored = await _store.GetAsync(s_key).ConfigureAwait(ConfigureAwaitOptions.ForceYielding);
            read = stored is { Value.Length: 2 * sizeof(long) }
                ? new FlushMark(BinaryPrimitives.ReadInt64BigEndian(stored.Value.Span), BinaryPrimitives.ReadInt64BigEndian(stored.Value.Span[sizeof(long)..]))
                : default;
        }
        catch (KeyValueStoreException)
        {
            // Keep what was known: a get must not fail because the flush time could not be read.
            lock (_gate)
            {
                _reading = null;
                return _mark;
            }
        }

        lock (_gate)
        {
            _reading = null;
            if (!_checked || startedAt >= _checkedAt)
            {
                _mark = read;
                _checkedAt = startedAt;
                _checked = true;
            }

            return _mark;
        }
    }
}
