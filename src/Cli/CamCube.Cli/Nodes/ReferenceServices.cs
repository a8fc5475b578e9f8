using System.Net;
using System.Net.Sockets;
using CamCube.Hosting;
using CamCube.Memcached;
using CamCube.Services.Cache;
using CamCube.Services.Cache.FrontEnd;
using CamCube.Services.Diagnostics;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;

namespace CamCube.Cli.Nodes;

/// <summary>
/// The reference services of the built-in node (`camcube node`, `camcube cube up`): the link
/// benchmark, the cache and, when a port is configured (<c>Memcached:Port</c>, with
/// <c>Memcached:Host</c>), its memcached front-end. Ping and key probe come with every node.
/// </summary>
internal static class ReferenceServices
{
    /// <summary>The configuration section of the memcached front-end.</summary>
    public const string MemcachedSection = "Memcached";

    /// <summary>Adds the reference services to a hosted node; the front-end listens where the configuration says.</summary>
    public static CamCubeNodeBuilder AddReferenceServices(this CamCubeNodeBuilder node) =>
        node.AddService(_ => new LinkBenchmarkService())
            .AddService(_ => new CacheService())
            .AddFrontEnd(sp => MemcachedFrontEnd(MemcachedEndPoint(sp.GetRequiredService<IConfiguration>().GetSection(MemcachedSection))));

    /// <summary>The reference services for a node started without a host (`cube up --in-process`).</summary>
    public static CamCubeNodeParts CreateParts(IPEndPoint? memcached)
    {
        var parts = new CamCubeNodeParts();
        parts.Services.Add(new LinkBenchmarkService());
        parts.Services.Add(new CacheService());
        parts.FrontEnds.Add(MemcachedFrontEnd(memcached));
        return parts;
    }

    /// <summary>Reads <c>Memcached:Port</c> and <c>Memcached:Host</c> (default 127.0.0.1); null when no port is configured.</summary>
    /// <exception cref="CamCubeConfigurationException">The port or the host is not valid; the message names it.</exception>
    public static IPEndPoint? MemcachedEndPoint(IConfigurationSection section)
    {
        var portText = section["Port"];
        if (portText is null)
        {
            return null;
        }

        if (!int.TryParse(portText, System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out var port) || port is < 1 or > 65_535)
        {
            throw new CamCubeConfigurationException($"{MemcachedSection}:Port: '{portText}' is not a whole number from 1 to 65535.");
        }

        var host = section["Host"] ?? "127.0.0.1";
        return IPAddress.TryParse(host, out var address)
            ? new IPEndPoint(address, port)
            : throw new CamCubeConfigurationException($"{MemcachedSection}:Host: '{host}' is not an IP address.");
    }

    private static FrontEndFactory MemcachedFrontEnd(IPEndPoint? endPoint) => async (node, cancellationToken) =>
    {
        if (endPoint is null || node.GetService<CacheService>() is not { } cache)
        {
            return NoFrontEnd.Instance;
        }

        var frontEnd = new MemcachedFrontEnd(cache, new MemcachedFrontEndOptions { EndPoint = endPoint }, node.LoggerFactory.CreateLogger("CamCube.Memcached"));
        try
        {
            await frontEnd.StartAsync(cancellationToken).ConfigureAwait(false);
        }
        catch (SocketException ex)
        {
            await frontEnd.DisposeAsync().ConfigureAwait(false);
            throw new InvalidOperationException($"node {node.Self}: the memcached front-end cannot listen on {endPoint}: {ex.Message} (is another memcached or cube running? use --memcached-port)", ex);
        }

        node.AddListener("memcached", endPoint.ToString());
        return frontEnd;
    };

    private sealed class NoFrontEnd : IAsyncDisposable
    {
        public static readonly NoFrontEnd Instance = new();

        public ValueTask DisposeAsync() => ValueTask.CompletedTask;
    }
}
