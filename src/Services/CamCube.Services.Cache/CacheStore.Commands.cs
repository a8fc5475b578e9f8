using System.Buffers;
using System.Buffers.Text;

namespace CamCube.Services.Cache;

/// <summary>The memcached commands as the root of a key executes them on its own items.</summary>
internal sealed partial class CacheStore
{
    /// <summary>The longest decimal value incr and decr accept (2^64 - 1 has 20 digits).</summary>
    private const int DecimalDigitsMax = 20;

    /// <summary>Gets the root's own live item of a key, dropping a stale copy found in its place.</summary>
    public CacheItem? GetPrimary(ReadOnlySpan<byte> key)
    {
        lock (Gate)
        {
            var item = Get(key);
            if (item is { IsCopy: true })
            {
                Remove(key);
                return null;
            }

            return item;
        }
    }

    /// <summary>Executes set, add, replace, append, prepend or cas at the root; <paramref name="value"/> becomes the store's.</summary>
    public CacheStatus Store(CacheOperation operation, ReadOnlySpan<byte> key, uint flags, int expirationSeconds, byte[] value, ulong compareCas, Coordinate self, out CacheItem? stored) =>
        Store(operation, key, flags, expirationSeconds, new ReadOnlySequence<byte>(value), value, compareCas, self, out stored);

    /// <summary>
    /// Executes set, add, replace, append, prepend or cas at the root with the bytes in <paramref name="value"/>.
    /// <paramref name="valueArray"/>, if given, holds the same bytes and becomes the store's; otherwise the bytes
    /// are copied, into the old item's own buffer when a set, replace or cas keeps the length (no allocation).
    /// </summary>
    public CacheStatus Store(CacheOperation operation, ReadOnlySpan<byte> key, uint flags, int expirationSeconds, in ReadOnlySequence<byte> value, byte[]? valueArray, ulong compareCas, Coordinate self, out CacheItem? stored)
    {
        lock (Gate)
        {
            stored = null;
            if (value.Length > ItemSizeMaxBytes)
            {
                // memcached drops the old item when a too-large set replaces it.
                RemoveOrphaning(key);
                return CacheStatus.TooLarge;
            }

            var existing = GetPrimary(key);
            switch (operation)
            {
                case CacheOperation.Add when existing is not null:
                case CacheOperation.Replace or CacheOperation.Append or CacheOperation.Prepend when existing is null:
                    return CacheStatus.NotStored;
                case CacheOperation.Cas when existing is null:
                    return CacheStatus.NotFound;
                case CacheOperation.Cas when existing.Cas != compareCas:
                    return CacheStatus.Exists;
                case CacheOperation.Append or CacheOperation.Prepend:
                    return Concatenate(existing!, value, operation == CacheOperation.Append, out stored);
            }

            if (existing is not null && valueArray is null && existing.Value.Length == value.Length)
            {
                // Same size: the memory count holds, and readers copy values under the lock, so the buffer can be reused.
                value.CopyTo(existing.Value);
                existing.Flags = flags;
                existing.ExpiresAt = ExpiryOf(expirationSeconds);
                existing.Cas = NextCas();
                existing.Root = self;
                existing.StoredAt = Now;
                MoveToNewest(existing);
                stored = existing;
                return CacheStatus.Stored;
            }

            var item = new CacheItem(existing?.Key ?? key.ToArray(), valueArray ?? value.ToArray())
            {
                Flags = flags,
                ExpiresAt = ExpiryOf(expirationSeconds),
                Cas = NextCas(),
                Root = self,
                CopyHolders = existing?.CopyHolders,
            };
            if (!Put(item))
            {
                return CacheStatus.OutOfMemory;
            }

            stored = item;
            return CacheStatus.Stored;
        }
    }

    /// <summary>Executes delete at the root.</summary>
    public CacheStatus Delete(ReadOnlySpan<byte> key, out CacheItem? deleted)
    {
        lock (Gate)
        {
            deleted = GetPrimary(key);
            if (deleted is null)
            {
                return CacheStatus.NotFound;
            }

            Remove(key);
            return CacheStatus.Deleted;
        }
    }

    /// <summary>Executes touch at the root.</summary>
    public CacheStatus Touch(ReadOnlySpan<byte> key, int expirationSeconds, out CacheItem? touched)
    {
        lock (Gate)
        {
            touched = GetPrimary(key);
            if (touched is null)
            {
                return CacheStatus.NotFound;
            }

            touched.ExpiresAt = ExpiryOf(expirationSeconds);
            return CacheStatus.Touched;
        }
    }

    /// <summary>Executes incr or decr at the root: the new decimal value replaces the old one, incr wraps at 2^64, decr stops at 0.</summary>
    public CacheStatus IncrementOrDecrement(ReadOnlySpan<byte> key, ulong delta, bool increment, out CacheItem? changed)
    {
        lock (Gate)
        {
            changed = GetPrimary(key);
            if (changed is null)
            {
                return CacheStatus.NotFound;
            }

            var digits = changed.Value.AsSpan();
            if (digits.Length is 0 or > DecimalDigitsMax || !Utf8Parser.TryParse(digits, out ulong current, out var consumed) || consumed != digits.Length)
            {
                return CacheStatus.NonNumeric;
            }

            var next = increment ? unchecked(current + delta) : (delta >= current ? 0 : current - delta);
            Span<byte> text = stackalloc byte[DecimalDigitsMax];
            Utf8Formatter.TryFormat(next, text, out var written);
            ReplaceValue(changed, text[..written].ToArray());
            changed.Cas = NextCas();
            return CacheStatus.Hit;
        }
    }

    /// <summary>Stores or refreshes a secondary's copy of an item the root answered with (camcubeos 5.1: the response populates the replica).</summary>
    /// <remarks>The copy dies at <paramref name="leaseEnd"/> (this node's clock) or when the item would, whichever is first.</remarks>
    public void PutCopy(ReadOnlySpan<byte> key, byte[] value, uint flags, ulong cas, int remainingSeconds, Coordinate root, long leaseEnd)
    {
        lock (Gate)
        {
            if (remainingSeconds < 0 || _byBytes.TryGetValue(key, out var existing) && !existing.IsCopy)
            {
                return;
            }

            Put(new CacheItem(key.ToArray(), value)
            {
                Flags = flags,
                ExpiresAt = Math.Min(ExpiryOf(remainingSeconds), leaseEnd),
                Cas = cas,
                IsCopy = true,
                Root = root,
            });
        }
    }

    private CacheStatus Concatenate(CacheItem existing, in ReadOnlySequence<byte> value, bool append, out CacheItem? stored)
    {
        stored = null;
        var length = existing.Value.Length + value.Length;
        if (length > ItemSizeMaxBytes)
        {
            return CacheStatus.TooLarge;
        }

        var combined = new byte[length];
        if (append)
        {
            existing.Value.CopyTo(combined, 0);
            value.CopyTo(combined.AsSpan(existing.Value.Length));
        }
        else
        {
            value.CopyTo(combined);
            existing.Value.CopyTo(combined, (int)value.Length);
        }

        ReplaceValue(existing, combined);
        existing.Cas = NextCas();
        stored = existing;
        return CacheStatus.Stored;
    }
}
