using System.Buffers.Text;
using CamCube.Memcached;

namespace CamCube.Services.KeyValue.FrontEnd;

/// <summary>The read-modify-write commands: read the item, change it, write it back on the version read; again when another write came between.</summary>
internal sealed partial class KeyValueCommands
{
    private enum ChangeKind
    {
        Replace,
        Append,
        Prepend,
        Increment,
        Decrement,
        Touch,
        TouchAndGet,
    }

    /// <summary>Reads, changes and writes back an item until the write lands on the version read; <paramref name="absent"/> when the key holds no live item.</summary>
    private async Task<KeyValueReply> UpdateAsync(Key key, Change change, KeyValueReply absent)
    {
        for (var attempt = 0; attempt < _options.ConditionalRetriesMax; attempt++)
        {
            var found = await ReadAsync(key).ConfigureAwait(false);
            if (!found.IsLive)
            {
                return absent;
            }

            var (stored, reply) = change.Apply(found.Item, WrittenAt(_time.GetUtcNow()));
            if (stored is null)
            {
                return reply;
            }

            var outcome = await PutAsync(key, stored, WriteCondition.IfVersion(found.Version)).ConfigureAwait(false);
            if (outcome.Succeeded)
            {
                return reply.Kind == KeyValueReplyKind.Value ? reply with { Item = MemcachedItem.Decode(stored), Version = outcome.Version } : reply;
            }
        }

        return KeyValueReply.Busy;
    }

    /// <summary>What a read-modify-write does to the item it read.</summary>
    private readonly record struct Change(ChangeKind Kind, uint Flags = 0, long ExpiresAt = 0, byte[]? Data = null, ulong Delta = 0)
    {
        public Change(MemcachedStorageOperation operation, uint flags, long expiresAt, byte[] data)
            : this(operation switch { MemcachedStorageOperation.Append => ChangeKind.Append, MemcachedStorageOperation.Prepend => ChangeKind.Prepend, _ => ChangeKind.Replace }, flags, expiresAt, data)
        {
        }

        public static Change Counter(bool increment, ulong delta) => new(increment ? ChangeKind.Increment : ChangeKind.Decrement, Delta: delta);

        public static Change Expiry(bool get, long expiresAt) => new(get ? ChangeKind.TouchAndGet : ChangeKind.Touch, ExpiresAt: expiresAt);

        /// <summary>The item to write and the reply once written; no item when the change cannot be made (the reply says why).</summary>
        public (byte[]? Stored, KeyValueReply Reply) Apply(MemcachedItem item, long writtenAtTicks)
        {
            var data = Data ?? [];
            switch (Kind)
            {
                case ChangeKind.Replace:
                    return (MemcachedItem.Encode(Flags, ExpiresAt, writtenAtTicks, data), KeyValueReply.Stored);
                case ChangeKind.Append:
                    return (MemcachedItem.Encode(item.Flags, item.ExpiresAtUnixMilliseconds, writtenAtTicks, item.Data.Span, data), KeyValueReply.Stored);
                case ChangeKind.Prepend:
                    return (MemcachedItem.Encode(item.Flags, item.ExpiresAtUnixMilliseconds, writtenAtTicks, data, item.Data.Span), KeyValueReply.Stored);
                case ChangeKind.Touch or ChangeKind.TouchAndGet:
                    // Touching does not make the item newer than a flush_all: its written time stays.
                    var touched = MemcachedItem.Encode(item.Flags, ExpiresAt, item.WrittenAtTicks, item.Data.Span);
                    return (touched, Kind == ChangeKind.Touch ? KeyValueReply.Touched : new KeyValueReply(KeyValueReplyKind.Value));
                default:
                    if (!TryParseCounter(item.Data.Span, out var number))
                    {
                        return (null, KeyValueReply.NonNumeric);
                    }

                    // As memcached: incr wraps at 2^64, decr stops at 0.
                    number = Kind == ChangeKind.Increment ? unchecked(number + Delta) : number < Delta ? 0 : number - Delta;
                    Span<byte> digits = stackalloc byte[20];
                    Utf8Formatter.TryFormat(number, digits, out var length);
                    return (MemcachedItem.Encode(item.Flags, item.ExpiresAtUnixMilliseconds, writtenAtTicks, digits[..length]), new KeyValueReply(KeyValueReplyKind.Number, Number: number));
            }
        }

        /// <summary>memcached's counters: a decimal number of at most 20 digits, trailing spaces allowed.</summary>
        private static bool TryParseCounter(ReadOnlySpan<byte> data, out ulong number)
        {
            data = data.TrimEnd((byte)' ');
            number = 0;
            return data.Length is > 0 and <= 20 && Utf8Parser.TryParse(data, out number, out var consumed) && consumed == data.Length;
        }
    }
}
