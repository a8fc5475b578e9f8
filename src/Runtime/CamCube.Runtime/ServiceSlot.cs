using CamCube.Runtime.ExtendedRouting;
using CamCube.Services;

namespace CamCube.Runtime;

/// <summary>A registered service at a node: the service, its weight, its send queue and counters.</summary>
internal sealed class ServiceSlot
{
    /// <summary>The pass a service with weight 1 adds per packet in stride scheduling.</summary>
    public const long StrideUnit = 1L << 20;

    public ServiceSlot(IService service, int weight, bool isControl, int sendQueuePacketsMax)
    {
        Service = service;
        Base = service as ServiceBase;
        Weight = weight;
        IsControl = isControl;
        Stride = StrideUnit / weight;
        Queue = new SendQueue(sendQueuePacketsMax);
    }

    public IService Service { get; }

    /// <summary>
    /// Gets the service as a <see cref="ServiceBase"/> when it is one (most are): the node's per-packet
    /// upcalls go through its virtual methods, a plain virtual call, where an interface call site that
    /// sees several services would go through the runtime's slower resolve stubs.
    /// </summary>
    public ServiceBase? Base { get; }

    public ushort Id => Service.ServiceId;

    public int Weight { get; }

    /// <summary>Gets whether this is a control service (liveness, link state), polled before any data service.</summary>
    public bool IsControl { get; }

    public long Stride { get; }

    public SendQueue Queue { get; }

    public ServiceCounters Counters { get; } = new();

    /// <summary>Gets the virtual pass per link for stride (start-time fair) scheduling across services.</summary>
    public long[] Pass { get; } = new long[LinkDirections.Count];

    public ServiceContext? Context { get; set; }

    /// <summary>Gets the service's extended router, if it uses the extended routing service.</summary>
    public ExtendedRouter? Router { get; private set; }

    /// <summary>
    /// Gets the router the node polls directly, without the service's <see cref="IService.Poll"/>:
    /// set when the service's Poll is <see cref="RoutedServiceBase"/>'s own, which only asks the
    /// router (two calls fewer for every poll of every link); null when the service polls itself.
    /// </summary>
    public ExtendedRouter? PolledRouter { get; private set; }

    /// <summary>Attaches the service's extended router and decides whether the node may poll it directly.</summary>
    public void AttachRouter(ExtendedRouter router)
    {
        Router = router;
        var poll = Service.GetType().GetMethod(nameof(IService.Poll), [typeof(LinkDirection)]);
        PolledRouter = Service is RoutedServiceBase && poll?.DeclaringType == typeof(RoutedServiceBase) ? router : null;
    }

    public bool Registered { get; set; } = true;
}
