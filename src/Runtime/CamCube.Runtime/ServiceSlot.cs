using CamCube.Packets;
using CamCube.Runtime.ExtendedRouting;
using CamCube.Runtime.Ownership;
using CamCube.Runtime.Posting;
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
        Id = service.ServiceId;
        Base = service as ServiceBase;
        Control = isControl ? service as IControlService : null;
        DropObserver = service as IDropObserver;
        Weight = weight;
        IsControl = isControl;
        Stride = StrideUnit / weight;
        Queue = new SendQueue(sendQueuePacketsMax);

        // Checked once: whether a poll may make a packet the queue does not hold (the control
        // services say so per link themselves, see Node.WantsRoom). A delegate to a virtual method
        // binds to its most derived override, which tells whether the service overrides it.
        Forwards = Base is null || !IsDeclaredBy(new Func<Packet, ForwardDecision>(Base.OnForward), typeof(ServiceBase));
        Polls = isControl ? Control is null : (Base is null || !IsDeclaredBy(new Func<LinkDirection, Packet?>(Base.Poll), typeof(ServiceBase)));
    }

    public IService Service { get; }

    /// <summary>
    /// Gets the service as a <see cref="ServiceBase"/> when it is one (most are): the node's per-packet
    /// upcalls go through its virtual methods, a plain virtual call, where an interface call site that
    /// sees several services would go through the runtime's slower resolve stubs.
    /// </summary>
    public ServiceBase? Base { get; }

    /// <summary>Gets the service as a control service that tells whether it has packets pending, or null.</summary>
    public IControlService? Control { get; }

    /// <summary>Gets the service as one that hears of its dropped packets, or null: then no notice is sent for them.</summary>
    public IDropObserver? DropObserver { get; }

    /// <summary>Gets the service id, read once at registration (it keys the node's slots).</summary>
    public ushort Id { get; }

    public int Weight { get; }

    /// <summary>Gets whether this is a control service (liveness, link state), polled before any data service.</summary>
    public bool IsControl { get; }

    /// <summary>
    /// Gets whether the service's own <see cref="IService.Poll"/> may hand out packets: it is not a
    /// <see cref="ServiceBase"/>, or overrides <see cref="ServiceBase.Poll"/>. A data service that
    /// does not only ever sends what waits in its <see cref="Queue"/>.
    /// </summary>
    public bool Polls { get; }

    /// <summary>
    /// Gets whether the service's own <see cref="IService.OnForward"/> may do more than forward the
    /// packet unchanged: it is not a <see cref="ServiceBase"/>, or overrides <see cref="ServiceBase.OnForward"/>.
    /// </summary>
    public bool Forwards { get; }

    public long Stride { get; }

    public SendQueue Queue { get; }

    public ServiceCounters Counters { get; } = new();

    /// <summary>Gets the virtual pass per link for stride (start-time fair) scheduling across services.</summary>
    public long[] Pass { get; } = new long[LinkDirections.Count];

    public ServiceContext? Context { get; set; }

    /// <summary>Gets the service's watches of key coordinates whose root or replica set it wants to hear about.</summary>
    public List<KeyWatch> KeyWatches { get; } = [];

    /// <summary>Gets or sets the work other threads posted to the service, set when the node adds the slot.</summary>
    public ServiceMailbox Mailbox { get; set; } = null!;

    /// <summary>Gets the service's extended router, if it uses the extended routing service.</summary>
    public ExtendedRouter? Router { get; private set; }

    /// <summary>
    /// Gets the router the node polls directly, without the service's <see cref="IService.Poll"/>:
    /// set when the service's Poll is <see cref="RoutedServiceBase"/>'s own, which only asks the
    /// router (two calls fewer for every poll of every link); null when the service polls itself.
    /// </summary>
    public ExtendedRouter? PolledRouter { get; private set; }

    /// <summary>
    /// Gets the router the node hands the service's key-routed packets to at every hop, without the
    /// service's upcalls: set when the service does not say it inspects hops (<see cref="IHopInspector"/>),
    /// as <see cref="RoutedServiceBase"/> then hands every packet to the router unchanged (four calls
    /// and a second root lookup fewer per hop); null when the service inspects its packets itself.
    /// </summary>
    public ExtendedRouter? DirectRouter { get; private set; }

    /// <summary>Attaches the service's extended router and decides whether the node may poll it and hand it packets directly.</summary>
    public void AttachRouter(ExtendedRouter router)
    {
        Router = router;
        var routed = Service as RoutedServiceBase;
        PolledRouter = routed is not null && IsDeclaredBy(new Func<LinkDirection, Packet?>(routed.Poll), typeof(RoutedServiceBase)) ? router : null;
        DirectRouter = routed is not null && Service is not IHopInspector ? router : null;
    }

    /// <summary>Gets whether the method a delegate is bound to (a virtual method's most derived override) is declared by <paramref name="declaringType"/>.</summary>
    private static bool IsDeclaredBy(Delegate method, Type declaringType) => method.Method.DeclaringType == declaringType;

    public bool Registered { get; set; } = true;
}
