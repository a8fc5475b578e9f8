namespace CamCube.Services.KeyValue.Storage;

/// <summary>Orders keys by their 20 bytes, big-endian, as SQLite orders them as blobs.</summary>
internal static class KeyOrder
{
    /// <summary>Compares two keys' bytes.</summary>
    public static int Compare(Key a, Key b)
    {
        Span<byte> left = stackalloc byte[Key.SizeBytes];
        Span<byte> right = stackalloc byte[Key.SizeBytes];
        a.WriteTo(left);
        b.WriteTo(right);
        return left.SequenceCompareTo(right);
    }
}
