namespace CamCube.Services.KeyValue.Messages;

/// <summary>The message types of the store's contracts, the same on every node; never renumber one.</summary>
internal static class KeyValueMessageType
{
    public const ushort ClientRequest = 1;
    public const ushort Prepare = 2;
    public const ushort Accept = 3;
    public const ushort Offer = 4;
    public const ushort Transfer = 5;
    public const ushort AcceptBatch = 6;
    public const ushort Purge = 7;

    /// <summary><see cref="DropLease"/> and its <see cref="LeaseDropped"/>.</summary>
    public const ushort DropLease = 8;

    /// <summary><see cref="RenewLeases"/> and its <see cref="LeasesRenewed"/>.</summary>
    public const ushort RenewLeases = 9;
}
