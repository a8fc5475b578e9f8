using CamCube.Packets;

namespace CamCube.Services;

/// <summary>
/// A convenient base for services: every upcall does nothing by default, and <see cref="Node"/>
/// is the service's handle on the node it runs on.
/// </summary>
public abstract class ServiceBase : IService
{
    private INodeContext? _node;

    /// <summary>Creates a service with its id and name.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The id is 0 or in the runtime's range (0xFF00 and above).</exception>
    protected ServiceBase(ushort serviceId, string name)
    {
        if (serviceId is 0 or >= ServiceIds.RuntimeFirst)
        {
            throw new ArgumentOutOfRangeException(nameof(serviceId), serviceId, $"A service id is from 1 to 0x{ServiceIds.RuntimeFirst - 1:X4}; 0 and 0x{ServiceIds.RuntimeFirst:X4} and above are reserved.");
        }

        ServiceId = serviceId;
        Name = name ?? throw new ArgumentNullException(nameof(name));
    }

    /// <inheritdoc/>
    public ushort ServiceId { get; }

    /// <inheritdoc/>
    public string Name { get; }

    /// <summary>Gets the node this service is registered on.</summary>
    /// <exception cref="InvalidOperationException">The service is not registered.</exception>
    protected INodeContext Node => _node ?? throw NotRegistered();

    /// <summary>Gets whether the service is registered on a node.</summary>
    protected bool IsRegistered => _node is not null;

    /// <inheritdoc/>
    public virtual void OnRegistered(INodeContext node) => Volatile.Write(ref _node, node);

    /// <inheritdoc/>
    public virtual void OnDeregistered() => Volatile.Write(ref _node, null);

    /// <summary>
    /// Runs <paramref name="function"/> on the node's event loop: the body of a public method that
    /// any thread may call, such as <c>public Task&lt;long&gt; GetAsync(Key key) =&gt; InvokeAsync(() =&gt; _counts[key]);</c>.
    /// See <see cref="INodeContext.InvokeAsync{T}(Func{T})"/>.
    /// </summary>
    /// <typeparam name="T">The result type.</typeparam>
    /// <param name="function">What to run on the loop.</param>
    /// <returns>A task with the result; it faults with <see cref="InvalidOperationException"/> if the service is not registered.</returns>
    protected Task<T> InvokeAsync<T>(Func<T> function) =>
        Volatile.Read(ref _node) is { } node ? node.InvokeAsync(function) : Task.FromException<T>(NotRegistered());

    /// <summary>
    /// Runs the asynchronous <paramref name="function"/> on the node's event loop, its awaits resuming
    /// there, and completes with what its task ends with (one task, never a task of a task): the body
    /// of a public asynchronous method that any thread may call, for example one that sends a request
    /// and awaits the reply. See <see cref="INodeContext.InvokeAsync{T}(Func{Task{T}})"/>.
    /// </summary>
    /// <typeparam name="T">The result type.</typeparam>
    /// <param name="function">What to start on the loop.</param>
    /// <returns>A task with the result; it faults with <see cref="InvalidOperationException"/> if the service is not registered.</returns>
    protected Task<T> InvokeAsync<T>(Func<Task<T>> function) =>
        Volatile.Read(ref _node) is { } node ? node.InvokeAsync(function) : Task.FromException<T>(NotRegistered());

    /// <summary>Runs <paramref name="action"/> on the node's event loop; see <see cref="INodeContext.InvokeAsync(Action)"/>.</summary>
    /// <param name="action">What to run on the loop.</param>
    /// <returns>A task that completes when it has run; it faults with <see cref="InvalidOperationException"/> if the service is not registered.</returns>
    protected Task InvokeAsync(Action action) =>
        Volatile.Read(ref _node) is { } node ? node.InvokeAsync(action) : Task.FromException(NotRegistered());

    /// <summary>Runs the asynchronous <paramref name="function"/> on the node's event loop; see <see cref="INodeContext.InvokeAsync(Func{Task})"/>.</summary>
    /// <param name="function">What to start on the loop.</param>
    /// <returns>A task that completes when the function's task does; it faults with <see cref="InvalidOperationException"/> if the service is not registered.</returns>
    protected Task InvokeAsync(Func<Task> function) =>
        Volatile.Read(ref _node) is { } node ? node.InvokeAsync(function) : Task.FromException(NotRegistered());

    /// <inheritdoc/>
    public virtual bool OnDeliver(Packet packet) => false;

    /// <inheritdoc/>
    public virtual ForwardDecision OnForward(Packet packet) => ForwardDecision.Forward;

    /// <inheritdoc/>
    public virtual bool OnNeighborFrame(Packet packet, LinkDirection link) => false;

    /// <inheritdoc/>
    public virtual Packet? Poll(LinkDirection link) => null;

    /// <inheritdoc/>
    public virtual void OnLinkChanged(LinkDirection link, bool up)
    {
    }

    private InvalidOperationException NotRegistered() => new($"Service {Name} is not registered on a node.");

    /// <inheritdoc/>
    public virtual void OnServerReachabilityChanged(Coordinate server, bool reachable)
    {
    }
}
