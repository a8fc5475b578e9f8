using ProtoBuf;

namespace CamCube.Services.KeyValue.Messages;

/// <summary>A replica's answer to <see cref="RenewLeases"/>: which run of renewals now runs, and the keys another server asked it to promise meanwhile.</summary>
[ProtoContract]
public sealed class LeasesRenewed
{
    /// <summary>
    /// Gets or sets the id of the run of renewals the replica extended (0: it renews none, leases are
    /// off there). A new id means the earlier run had ended: only leases still running when the new
    /// one began are renewed.
    /// </summary>
    [ProtoMember(1, DataFormat = DataFormat.FixedSize)]
    public long Renewal { get; set; }

    /// <summary>Gets the keys for which the replica refused another server's ballot only because these renewals kept the primary's lease in force.</summary>
    [ProtoMember(2)]
    public List<byte[]> ContestedKeys { get; } = [];
}
