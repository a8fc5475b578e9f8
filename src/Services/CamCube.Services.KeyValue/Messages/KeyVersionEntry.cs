using ProtoBuf;

namespace CamCube.Services.KeyValue.Messages;

/// <summary>A key and the version the offering server holds of it.</summary>
[ProtoContract]
public sealed class KeyVersionEntry
{
    /// <summary>Gets or sets the key's 20 bytes.</summary>
    [ProtoMember(1)]
    public byte[] Key { get; set; } = [];

    /// <summary>Gets or sets the version held.</summary>
    [ProtoMember(2)]
    public long Version { get; set; }

    /// <summary>
    /// Gets the ids of the key's writes the offering server knows took effect and noted within twice
    /// the request timeout (a front-end may still ask about them), oldest first, as a promise carries
    /// them: a server that restarted without its memory learns them while it catches up.
    /// </summary>
    [ProtoMember(3, DataFormat = DataFormat.FixedSize, IsPacked = true)]
    public List<ulong> RecentWriteIds { get; } = [];

    /// <summary>Gets the version of each of <see cref="RecentWriteIds"/>.</summary>
    [ProtoMember(4, IsPacked = true)]
    public List<long> RecentWriteVersions { get; } = [];
}
