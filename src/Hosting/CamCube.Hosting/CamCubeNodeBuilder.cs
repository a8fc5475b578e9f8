using CamCube.Hosting.Control;
using CamCube.Services;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;

namespace CamCube.Hosting;

/// <summary>
/// Says what a node hosted by <see cref="CamCubeServiceCollectionExtensions.AddCamCubeNode"/> runs:
/// its services, built through dependency injection when the host starts, its front-ends, and its
/// transport.
/// </summary>
public sealed class CamCubeNodeBuilder
{
    private readonly List<Func<IServiceProvider, IService>> _services = [];
    private readonly List<Func<IServiceProvider, FrontEndFactory>> _frontEnds = [];
    private readonly Dictionary<string, ControlCommandHandler> _commands = new(StringComparer.Ordinal);

    internal CamCubeNodeBuilder(IServiceCollection services)
    {
        Services = services;
    }

    /// <summary>Gets the host's service collection, for what the node's services depend on.</summary>
    public IServiceCollection Services { get; }

    /// <summary>Gets whether a transport was chosen.</summary>
    internal bool HasTransport { get; private set; }

    /// <summary>Adds a service of type <typeparamref name="TService"/>, constructed through dependency injection (one per node; other parts of the host may ask for it).</summary>
    /// <typeparam name="TService">The service.</typeparam>
    /// <returns>This builder.</returns>
    public CamCubeNodeBuilder AddService<TService>()
        where TService : class, IService
    {
        Services.TryAddSingleton<TService>();
        _services.Add(sp => sp.GetRequiredService<TService>());
        return this;
    }

    /// <summary>Adds a service made by <paramref name="factory"/> when the node starts.</summary>
    /// <typeparam name="TService">The service.</typeparam>
    /// <param name="factory">Makes the service from the host's services.</param>
    /// <returns>This builder.</returns>
    public CamCubeNodeBuilder AddService<TService>(Func<IServiceProvider, TService> factory)
        where TService : class, IService
    {
        ArgumentNullException.ThrowIfNull(factory);
        Services.TryAddSingleton(factory);
        _services.Add(sp => sp.GetRequiredService<TService>());
        return this;
    }

    /// <summary>Adds a front-end (a memcached server, an HTTP endpoint), started after the services and stopped before them.</summary>
    /// <param name="factory">Makes the front-end's starter from the host's services.</param>
    /// <returns>This builder.</returns>
    public CamCubeNodeBuilder AddFrontEnd(Func<IServiceProvider, FrontEndFactory> factory)
    {
        ArgumentNullException.ThrowIfNull(factory);
        _frontEnds.Add(factory);
        return this;
    }

    /// <summary>Adds a command to the node's control socket, so a client can ask the node's services something from outside (<c>who-owns user:42</c>).</summary>
    /// <param name="name">The command's first word; not one of the built-in commands (status, health, ping, pingall, probe, faults, cut, restore, stop).</param>
    /// <param name="handler">Answers it.</param>
    /// <returns>This builder.</returns>
    /// <exception cref="ArgumentException">The name is empty, holds a space, is built in or was added already.</exception>
    public CamCubeNodeBuilder AddControlCommand(string name, ControlCommandHandler handler)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        ArgumentNullException.ThrowIfNull(handler);
        if (name.Contains(' ', StringComparison.Ordinal) || ControlCommands.BuiltIn.Contains(name) || !_commands.TryAdd(name, handler))
        {
            throw new ArgumentException($"'{name}' cannot be a control command: it holds a space, is built in, or was added already.", nameof(name));
        }

        return this;
    }

    /// <summary>Runs the node over UDP, one socket per node, addressed by <see cref="CamCubeNodeOptions.BasePort"/> or <see cref="CamCubeNodeOptions.Peers"/>.</summary>
    /// <returns>This builder.</returns>
    public CamCubeNodeBuilder UseUdpTransport()
    {
        HasTransport = true;
        return this;
    }

    /// <summary>Builds the node's parts from the host's services.</summary>
    /// <exception cref="InvalidOperationException">Two of the node's services share an id (see <see cref="ServiceIds.ThrowIfClash"/>).</exception>
    internal CamCubeNodeParts CreateParts(IServiceProvider services)
    {
        var parts = new CamCubeNodeParts();
        foreach (var service in _services)
        {
            parts.Services.Add(service(services));
        }

        // Hand-picked ids clash only when two services meet on a node: refuse the host before it starts, naming both.
        ServiceIds.ThrowIfClash(parts.Services);

        foreach (var frontEnd in _frontEnds)
        {
            parts.FrontEnds.Add(frontEnd(services));
        }

        foreach (var (name, handler) in _commands)
        {
            parts.Commands.Add(name, handler);
        }

        return parts;
    }
}
