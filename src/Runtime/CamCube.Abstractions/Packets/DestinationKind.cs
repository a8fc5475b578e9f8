namespace CamCube.Packets;

/// <summary>What a packet's destination field names (wire format v1, byte 3).</summary>
public enum DestinationKind : byte
{
    /// <summary>A one-hop frame for the neighbour at the other end of the link; never routed further.</summary>
    Neighbor = 0,

    /// <summary>A server: delivered there if it is reachable, otherwise dropped and counted.</summary>
    Server = 1,

    /// <summary>A key coordinate: delivered to whichever live server is its root when the packet arrives.</summary>
    Key = 2,
}
