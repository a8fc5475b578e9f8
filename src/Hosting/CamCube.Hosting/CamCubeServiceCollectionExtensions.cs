using CamCube.Hosting.Health;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Options;

namespace CamCube.Hosting;

/// <summary>Adds a CamCube node to a <see cref="IServiceCollection"/> (the way Orleans adds a silo).</summary>
public static class CamCubeServiceCollectionExtensions
{
    /// <summary>
    /// Adds one CamCube node to the host: its options bound from the configuration section
    /// <see cref="CamCubeNodeOptions.SectionName"/> and checked when the host starts, its services
    /// built through dependency injection, a hosted service that starts it with the host and stops
    /// it with the host (or when its control socket is told to stop), and the health check
    /// <c>camcube-node</c>.
    /// </summary>
    /// <param name="services">The host's services.</param>
    /// <param name="configure">Adds the node's services and chooses its transport, such as <c>node =&gt; node.AddService&lt;MyService&gt;().UseUdpTransport()</c>.</param>
    /// <returns>The same service collection.</returns>
    /// <exception cref="InvalidOperationException">No transport was chosen, or a node was added already.</exception>
    public static IServiceCollection AddCamCubeNode(this IServiceCollection services, Action<CamCubeNodeBuilder> configure)
    {
        ArgumentNullException.ThrowIfNull(services);
        ArgumentNullException.ThrowIfNull(configure);
        if (services.Any(d => d.ServiceType == typeof(CamCubeNodeBuilder)))
        {
            throw new InvalidOperationException("AddCamCubeNode was called twice: a host runs one node.");
        }

        var builder = new CamCubeNodeBuilder(services);
        configure(builder);
        if (!builder.HasTransport)
        {
            throw new InvalidOperationException("AddCamCubeNode: choose the node's transport, such as node.UseUdpTransport().");
        }

        services.AddSingleton(builder);
        services.AddOptions<CamCubeNodeOptions>().ValidateOnStart();
        services.AddSingleton<IConfigureOptions<CamCubeNodeOptions>, CamCubeNodeOptionsBinder>();
        services.TryAddEnumerable(ServiceDescriptor.Singleton<IValidateOptions<CamCubeNodeOptions>, CamCubeNodeOptionsValidator>());
        services.AddSingleton<CamCubeNodeAccessor>();
        services.AddMetrics();
        services.AddHealthChecks().AddCheck<CamCubeNodeHealthCheck>(CamCubeNodeHealthCheck.Name);
        services.AddHostedService<CamCubeNodeHostedService>();
        return services;
    }
}
