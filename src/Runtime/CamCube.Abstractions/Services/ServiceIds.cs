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

    /// <summary>
    /// Checks the services one node will run before any is registered: every id is from 1 to
    /// 0x<c>FEFF</c> and no two services share one. A host calls this when it is built, so a clash
    /// of hand-picked ids shows at start-up, naming both services, instead of at <c>Register</c> on one node.
    /// </summary>
    /// <param name="services">The services of one node.</param>
    /// <exception cref="InvalidOperationException">Two services share an id (the message names both and the id), or an id is reserved.</exception>
    public static void ThrowIfClash(IEnumerable<IService> services)
    {
        ArgumentNullException.ThrowIfNull(services);
        var byId = new Dictionary<ushort, IService>();
        foreach (var service in services)
        {
            ArgumentNullException.ThrowIfNull(service, nameof(services));
            if (service.ServiceId is 0 or >= RuntimeFirst)
            {
                throw new InvalidOperationException($"Service {Describe(service)} has id 0x{service.ServiceId:X4}, which is reserved; use 1 to 0x{RuntimeFirst - 1:X4}.");
            }

            if (!byId.TryAdd(service.ServiceId, service))
            {
                throw new InvalidOperationException($"Services {Describe(byId[service.ServiceId])} and {Describe(service)} both have id 0x{service.ServiceId:X4}; give one of them another id.");
            }
        }
    }

    private static string Describe(IService service) => $"'{service.Name}' ({service.GetType().FullName})";
}
