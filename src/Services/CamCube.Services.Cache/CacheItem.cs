namespace CamCube.Services.Cache;

/// <summary>
/// One item in a node's store: the root's own item (primary) or a copy a secondary replica holds
/// (camcubeos 5.1). Items are linked in least-recently-used order.
/// </summary>
internal sealed class CacheItem(byte[] key, byte[] value)
{
    /// <summary>Bytes counted per item beyond its key and value (the item object and the map's entry).</summary>
    public const int OverheadBytes = 96;

    public byte[] Key { get; } = key;

    public byte[] Value { get; set; } = value;

    public uint Flags { get; set; }

    /// <summary>Gets or sets when the item expires, a timestamp of the node's clock; <see cref="long.MaxValue"/> never.</summary>
    public long ExpiresAt { get; set; } = long.MaxValue;

    /// <summary>Gets or sets when the item was stored, a timestamp of the node's clock (for delayed flush_all).</summary>
    public long StoredAt { get; set; }

    public ulong Cas { get; set; }

    /// <summary>Gets or sets whether this is a secondary's copy rather than the root's item.</summary>
    public bool IsCopy { get; set; }

    /// <summary>Gets or sets the server that was the key's root when the item was stored here.</summary>
    public Coordinate Root { get; set; }

    /// <summary>Gets or sets the servers the root answered copies to, with their leases (root items only; null until the first).</summary>
    public List<CopyHolder>? CopyHolders { get; set; }

    /// <summary>Gets the end of the latest copy lease the root granted on this item, or <see cref="long.MinValue"/> if none.</summary>
    public long LatestLeaseEnd
    {
        get
        {
            var end = long.MinValue;
            if (CopyHolders is { } holders)
            {
                foreach (var holder in holders)
                {
                    end = Math.Max(end, holder.LeaseEnd);
                }
            }

            return end;
        }
    }

    public CacheItem? Newer { get; set; }

    public CacheItem? Older { get; set; }

    public long SizeBytes => Key.Length + Value.Length + OverheadBytes;
}
