namespace CamCube.Services;

/// <summary>Service ids the runtime reserves (0xFF00 and above), and the first one services may use.</summary>
public static class ServiceIds
{
    /// <summary>The first id reserved for the runtime's own services.</summary>
    public const ushort RuntimeFirst = 0xFF00;

    /// <summary>Neighbour liveness: heartbeats on every link.</summary>
    public const ushort Liveness = 0xFF01;

    /// <summary>Link-state routing: flooded link-state updates.</summary>
    public const ushort LinkState = 0xFF02;

    /// <summary>Drop notices: routed to a dropped packet's source, for a service that implements <see cref="IDropObserver"/>.</summary>
    public const ushort DropNotice = 0xFF03;
}
