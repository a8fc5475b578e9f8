using CamCube.Packets;
using Microsoft.Extensions.Logging;

namespace CamCube.Services;

/// <summary>
/// A service's handle on its node: who and where the node is, and the KBR API (route to a key
/// or to a server, replica sets, reachability). Every member must be used on the node's event loop,
/// except the ways onto it: <see cref="TryPost"/>, <see cref="Post"/> and the <c>InvokeAsync</c>
/// overloads, which any thread may call.
/// </summary>
/// <remarks>
/// <para>A service's public methods that other threads call (a front-end, a host, a test) marshal
/// onto the loop with these: <c>public Task&lt;long&gt; IncrementAsync(Key key) =&gt; Node.InvokeAsync(() =&gt; Increment(key));</c>.
/// Work posted this way runs in a later turn of the loop, never inside the caller's call, in the
/// order posted, guarded like every upcall (an exception in <see cref="Post"/>ed work is logged;
/// an <c>InvokeAsync</c> hands it to the caller's task).</para>
/// <para>While posted work runs, the current <see cref="SynchronizationContext"/> is the service's
/// own: an <c>await</c> in it (without <c>ConfigureAwait(false)</c>, or with <c>ConfigureAwait(true)</c>)
/// resumes on the loop, so an asynchronous function passed to
/// <see cref="InvokeAsync{T}(Func{Task{T}})"/> may await replies and stay on the loop throughout.
/// The caller's own continuations never run on the loop.</para>
/// </remarks>
public interface INodeContext
{
    /// <summary>Gets the node's coordinate.</summary>
    Coordinate Self { get; }

    /// <summary>Gets the torus shape.</summary>
    TorusShape Shape { get; }

    /// <summary>Gets the shape's keyspace.</summary>
    KeySpace KeySpace { get; }

    /// <summary>Gets the node's clock; every timer and clock read goes through it.</summary>
    TimeProvider TimeProvider { get; }

    /// <summary>Gets the node's seeded random source; all randomness comes from it so runs replay.</summary>
    Random Random { get; }

    /// <summary>Gets a logger for this service.</summary>
    ILogger Logger { get; }

    /// <summary>Gets which servers this node can reach, kept by the link-state protocol.</summary>
    IReachabilityView Reachability { get; }

    /// <summary>Gets the hop limit the node gives new routed packets.</summary>
    byte DefaultHopLimit { get; }

    /// <summary>Gets whether this node has a link in <paramref name="link"/> and it is up.</summary>
    bool IsLinkUp(LinkDirection link);

    /// <summary>
    /// Gets whether <paramref name="link"/> can take a frame now (camcubeos 3.3: the link's one packet
    /// slot is empty): the link is up and its transport has room. A service that paces what it makes
    /// in <see cref="IService.Poll"/> reads this; the node polls a link only when it has room.
    /// </summary>
    bool HasLinkRoom(LinkDirection link);

    /// <summary>Gets how many packets of this service wait at this node: its send queue and its extended-routing queues.</summary>
    int QueuedPacketCount { get; }

    /// <summary>Gets the capacity of this service's send queue here, in packets: a route or send call past it drops the packet and returns <see cref="RouteStatus.DroppedQueueFull"/>.</summary>
    int SendQueuePacketsMax { get; }

    /// <summary>Rents a packet from the node's pool; the caller owns it until it routes, sends or releases it.</summary>
    Packet CreatePacket();

    /// <summary>
    /// Routes <paramref name="packet"/> to whichever live server is the root of <paramref name="destination"/>
    /// (always delivered while any path exists). Writes the header (this service's id, source, hop limit);
    /// the payload must already be in place with <see cref="Packet.PayloadLength"/> set. The node owns the packet afterwards, whatever the status (see <see cref="RouteStatus"/>).
    /// </summary>
    RouteStatus RouteToKey(Packet packet, KeyCoordinate destination);

    /// <summary>Routes <paramref name="packet"/> to the root of <paramref name="key"/>; see <see cref="RouteToKey(Packet, KeyCoordinate)"/>.</summary>
    RouteStatus RouteToKey(Packet packet, Key key);

    /// <summary>
    /// Routes <paramref name="packet"/> to <paramref name="server"/>: delivered if it is reachable, otherwise
    /// dropped and counted. Writes the header as <see cref="RouteToKey(Packet, KeyCoordinate)"/> does.
    /// </summary>
    RouteStatus RouteToServer(Packet packet, Coordinate server);

    /// <summary>
    /// Sends <paramref name="packet"/>'s payload to each server of <paramref name="servers"/> without a
    /// copy per server (a multicast tree's chunk to its children): each server gets a header of its own
    /// (<see cref="Packet.Share"/>: this service's id, source, hop limit, that server as destination)
    /// over the one payload, whose buffer counts its references. Each header is routed as
    /// <see cref="RouteToServer"/> routes a packet, and each is dropped or delivered alone: a full queue
    /// or an unreachable server for one leaves the others whole.
    /// </summary>
    /// <param name="packet">The payload, with <see cref="Packet.PayloadLength"/> set. Unlike a route call, the
    /// caller keeps it (see <see cref="RouteStatus"/>): release it as usual, or let the node do so after the
    /// upcall that lent it. Its payload is read only until the last header is sent.</param>
    /// <param name="servers">Where to send it; any number, one header each.</param>
    /// <param name="statuses">What became of each server's header, in the same order; empty if not wanted, otherwise at least as long as <paramref name="servers"/>.</param>
    /// <returns>How many headers were queued or delivered here.</returns>
    /// <exception cref="ArgumentException"><paramref name="statuses"/> is neither empty nor long enough.</exception>
    int Transmit(Packet packet, ReadOnlySpan<Coordinate> servers, Span<RouteStatus> statuses);

    /// <summary>
    /// Continues routing a packet this service already holds (for example one it kept in its
    /// forward upcall) without rewriting its header: it goes towards its current destination.
    /// </summary>
    RouteStatus Reroute(Packet packet);

    /// <summary>Sends a one-hop frame to the neighbour on <paramref name="link"/>, queued in this service's send queue.</summary>
    RouteStatus SendToNeighbor(Packet packet, LinkDirection link);

    /// <summary>Writes the first reachable servers of <paramref name="key"/>'s walk (root first); returns how many (see <see cref="KeySpace"/>).</summary>
    int GetServersForKey(KeyCoordinate key, Span<Coordinate> destination);

    /// <summary>Gets the current root of a key coordinate.</summary>
    Coordinate GetRoot(KeyCoordinate key);

    /// <summary>Gets the servers this node currently believes unreachable.</summary>
    IReadOnlyList<Coordinate> GetUnreachableServers();

    /// <summary>Gets another service registered on this node, to call its local API, or null.</summary>
    T? GetService<T>()
        where T : class, IService;

    /// <summary>Tells the node this service has new packets in its own queues, so links with room poll it.</summary>
    void RequestPoll();

    /// <summary>Gets the links (bit i for direction i) that lie on a shortest path from here to <paramref name="server"/> over live links; 0 if it is unreachable or here.</summary>
    byte GetNextHops(Coordinate server);

    /// <summary>
    /// Registers this service with the extended routing service: its routing protocol (F and
    /// classify) and its default queue (id 0). Call once, normally from <see cref="IService.OnRegistered"/>.
    /// </summary>
    /// <exception cref="InvalidOperationException">This service already has a router.</exception>
    IExtendedRouter CreateExtendedRouter(IRoutingProtocol protocol, RoutingQueueOptions defaultQueue);

    /// <summary>
    /// Creates a watch of key coordinates this service holds: after each change of the reachability
    /// view the service hears which of them have another root or replica set of
    /// <paramref name="replicaCount"/> servers (<see cref="IOwnershipObserver.OnOwnershipChanged"/>),
    /// without rescanning its keys. A service may have several watches (for several r).
    /// </summary>
    /// <param name="replicaCount">r: how many servers of each walk to watch, 1 (the root) or more.</param>
    /// <returns>The watch, empty; add key coordinates to it.</returns>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="replicaCount"/> is below 1 or above the number of servers.</exception>
    /// <exception cref="InvalidOperationException">The service does not implement <see cref="IOwnershipObserver"/>, so it could not hear of changes.</exception>
    IKeyWatch CreateKeyWatch(int replicaCount);

    /// <summary>
    /// Creates a timer whose <paramref name="callback"/> runs on the node's event loop, first after
    /// <paramref name="dueTime"/> and then every <paramref name="period"/> (<see cref="Timeout.InfiniteTimeSpan"/>
    /// for once). It stops when disposed or when the node stops.
    /// </summary>
    ITimer CreateTimer(Action callback, TimeSpan dueTime, TimeSpan period);

    /// <summary>Counts a packet this service dropped itself, under <paramref name="reason"/>, and releases it.</summary>
    void Drop(Packet packet, DropReason reason);

    /// <summary>
    /// Queues <paramref name="callback"/>, called with <paramref name="state"/>, to run on the node's
    /// event loop in a later turn. Thread-safe, and allocates nothing: pass a static lambda and the
    /// state it needs (the hot path's way onto the loop, for example a front-end's requests).
    /// </summary>
    /// <param name="callback">What to run on the loop.</param>
    /// <param name="state">What to pass it.</param>
    /// <returns>
    /// True if the callback will run; false if it never will: the service has left its node, or the
    /// service's posted work already holds the node's limit of items (<c>NodeOptions.PostedItemsMax</c>,
    /// default 65,536; the caller decides, for example by answering "busy").
    /// </returns>
    /// <exception cref="ArgumentNullException"><paramref name="callback"/> is null.</exception>
    /// <remarks>
    /// Thread-safe for a node whose event loop runs on a thread of its own (a UDP node). The test
    /// cubes in virtual time are driven from the test's thread and are not thread-safe (a simulated
    /// cube's nodes share one engine): there, post only from the thread that drives the cube.
    /// </remarks>
    bool TryPost(Action<object?> callback, object? state);

    /// <summary>Queues <paramref name="action"/> to run on the node's event loop in a later turn. Thread-safe; see <see cref="TryPost"/>.</summary>
    /// <param name="action">What to run on the loop.</param>
    /// <exception cref="ArgumentNullException"><paramref name="action"/> is null.</exception>
    /// <exception cref="InvalidOperationException">The service has left its node or its posted work is at the limit.</exception>
    void Post(Action action);

    /// <summary>Runs <paramref name="function"/> on the node's event loop and completes with its result or its exception. Thread-safe.</summary>
    /// <typeparam name="T">The result type.</typeparam>
    /// <param name="function">What to run on the loop.</param>
    /// <returns>
    /// A task with the result. It faults with <see cref="InvalidOperationException"/> if the call
    /// could not be queued (see <see cref="TryPost"/>), and with <see cref="ObjectDisposedException"/>
    /// if the service left its node before the call ran.
    /// </returns>
    /// <exception cref="ArgumentNullException"><paramref name="function"/> is null.</exception>
    Task<T> InvokeAsync<T>(Func<T> function);

    /// <summary>
    /// Runs the asynchronous <paramref name="function"/> on the node's event loop and completes with
    /// what its task ends with: one task for the caller, never a task of a task. Its awaits resume on
    /// the loop (see the remarks of <see cref="INodeContext"/>). Thread-safe.
    /// </summary>
    /// <typeparam name="T">The result type.</typeparam>
    /// <param name="function">What to start on the loop.</param>
    /// <returns>A task with the result; it faults as <see cref="InvokeAsync{T}(Func{T})"/>'s does, or as the function's task.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="function"/> is null.</exception>
    Task<T> InvokeAsync<T>(Func<Task<T>> function);

    /// <summary>Runs <paramref name="action"/> on the node's event loop; the task completes when it has run. Thread-safe.</summary>
    /// <param name="action">What to run on the loop.</param>
    /// <returns>A task that faults as <see cref="InvokeAsync{T}(Func{T})"/>'s does.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="action"/> is null.</exception>
    Task InvokeAsync(Action action);

    /// <summary>Runs the asynchronous <paramref name="function"/> on the node's event loop and completes when its task does. Thread-safe.</summary>
    /// <param name="function">What to start on the loop.</param>
    /// <returns>A task that faults as <see cref="InvokeAsync{T}(Func{Task{T}})"/>'s does.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="function"/> is null.</exception>
    Task InvokeAsync(Func<Task> function);
}
