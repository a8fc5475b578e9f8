using System.Net;
using System.Net.Sockets;
using CamCube.Hosting;
using CamCube.Memcached;
using CamCube.Services.Cache;
using CamCube.Services.Cache.FrontEnd;
using CamCube.Services.Diagnostics;
using CamCube.Services.KeyValue;
using CamCube.Services.KeyValue.FrontEnd;
using CamCube.Services.KeyValue.Storage;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;

namespace CamCube.Cli.Nodes;

/// <summary>
/// The reference services of the built-in node (`camcube node`, `camcube cube up`): the link
/// benchmark, the cache and, when a port is configured (<c>Memcached:Port</c>, with
/// <c>Memcached:Host</c>), its memcached front-end; the replicated key-value store
/// (<see cref="KeyValueNodeSettings"/>: SQLite by default) and, when <c>KeyValue:Port</c> is
/// configured, its own memcached front-end. With <c>KeyValue:CacheReadsStore</c>, the cache reads the
/// store's local replica on a miss at a key's root and keeps no second copy of it (<see cref="StoreCacheValueSource"/>). Ping and key
/// probe come with every node, and <c>kv-stats</c> on the control socket (<see cref="KeyValueStatsCommand"/>).
/// </summary>
internal static class ReferenceServices
{
    /// <summary>The configuration section of the memcached front-end.</summary>
    public const string MemcachedSection = "Memcached";

    /// <summary>Adds the reference services to a hosted node; the front-ends listen where the configuration says.</summary>
    public static CamCubeNodeBuilder AddReferenceServices(this CamCubeNodeBuilder node)
    {
        // The storage is the host's: disposed after the node has stopped.
        node.Services.TryAddSingleton(sp => KeyValueNodeSettings.Read(sp.GetRequiredService<IConfiguration>()));
        node.Services.TryAddSingleton(sp => sp.GetRequiredService<KeyValueNodeSettings>().Open(KeyValueNodeSettings.NodeName(sp.GetRequiredService<IConfiguration>()[$"{CamCubeNodeOptions.SectionName}:{nameof(CamCubeNodeOptions.Coordinate)}"])));
        return node.AddService(_ => new LinkBenchmarkService())
            .AddService(sp => new CacheService(valueSource: CacheSource(sp.GetRequiredService<KeyValueNodeSettings>(), sp.GetRequiredService<IKeyValueStorage>())))
            .AddService(sp => new KeyValueService(sp.GetRequiredService<IKeyValueStorage>(), sp.GetRequiredService<KeyValueNodeSettings>().StoreOptions))
            .AddFrontEnd(sp => MemcachedFrontEnd(ListenEndPoint(sp.GetRequiredService<IConfiguration>().GetSection(MemcachedSection))))
            .AddFrontEnd(sp => KeyValueFrontEnd(sp.GetRequiredService<KeyValueNodeSettings>().FrontEnd))
            .AddControlCommand(KeyValueStatsCommand.Name, KeyValueStatsCommand.AnswerAsync);
    }

    /// <summary>The reference services for a node started without a host (`cube up --in-process`); the storage stays open until the process ends.</summary>
    public static CamCubeNodeParts CreateParts(IPEndPoint? memcached, KeyValueNodeSettings keyValue, string nodeName)
    {
        var parts = new CamCubeNodeParts();
        var storage = keyValue.Open(nodeName);
        parts.Services.Add(new LinkBenchmarkService());
        parts.Services.Add(new CacheService(valueSource: CacheSource(keyValue, storage)));
        parts.Services.Add(new KeyValueService(storage, keyValue.StoreOptions));
        parts.FrontEnds.Add(MemcachedFrontEnd(memcached));
        parts.FrontEnds.Add(KeyValueFrontEnd(keyValue.FrontEnd));
        parts.Commands[KeyValueStatsCommand.Name] = KeyValueStatsCommand.AnswerAsync;
        return parts;
    }

    /// <summary>The store as the cache's value source when <see cref="KeyValueNodeSettings.CacheReadsStore"/> says so.</summary>
    private static StoreCacheValueSource? CacheSource(KeyValueNodeSettings settings, IKeyValueStorage storage) =>
        settings.CacheReadsStore ? new StoreCacheValueSource(storage, TimeProvider.System) : null;

    /// <summary>Reads a front-end's <c>Port</c> and <c>Host</c> (default 127.0.0.1) from its section; null when no port is configured.</summary>
    /// <exception cref="CamCubeConfigurationException">The port or the host is not valid; the message names it.</exception>
    public static IPEndPoint? ListenEndPoint(IConfigurationSection section)
    {
        var portText = section["Port"];
        if (portText is null)
        {
            return null;
        }

        if (!int.TryParse(portText, System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out var port) || port is < 1 or > 65_535)
        {
            throw new CamCubeConfigurationException($"{section.Path}:Port: '{portText}' is not a whole number from 1 to 65535.");
        }

        var host = section["Host"] ?? "127.0.0.1";
        return IPAddress.TryParse(host, out var address)
            ? new IPEndPoint(address, port)
            : throw new CamCubeConfigurationException($"{section.Path}:Host: '{host}' is not an IP address.");
    }

    private static FrontEndFactory MemcachedFrontEnd(IPEndPoint? endPoint) => async (node, cancellationToken) =>
    {
        if (endPoint is null || node.GetService<CacheService>() is not { } cache)
        {
            return NoFrontEnd.Instance;
        }

        var frontEnd = new MemcachedFrontEnd(cache, new MemcachedFrontEndOptions { EndPoint = endPoint }, node.LoggerFactory.CreateLogger("CamCube.Memcached"));
        await StartAsync(node, "memcached", endPoint, () => frontEnd.StartAsync(cancellationToken), frontEnd, "--memcached-port").ConfigureAwait(false);
        return frontEnd;
    };

    private static FrontEndFactory KeyValueFrontEnd(IPEndPoint? endPoint) => async (node, cancellationToken) =>
    {
        if (endPoint is null || node.GetService<KeyValueService>() is not { } store)
        {
            return NoFrontEnd.Instance;
        }

        // Values over what the store takes are refused by the front-end at once, header included.
        var options = new KeyValueFrontEndOptions
        {
            Connections = new MemcachedFrontEndOptions { EndPoint = endPoint },
            ItemSizeMaxBytes = Math.Max(1, store.ValueBytesMax - KeyValueFrontEndOptions.ItemHeaderBytes),
        };
        var frontEnd = new KeyValueFrontEnd(store, options, node.LoggerFactory.CreateLogger("CamCube.KeyValue.Memcached"));
        await StartAsync(node, "kv", endPoint, () => frontEnd.StartAsync(cancellationToken), frontEnd, "--kv-port").ConfigureAwait(false);
        return frontEnd;
    };

    /// <summary>Waits for a front-end to listen and names it in the node's status; a port in use is one line saying so.</summary>
    private static async Task StartAsync(CamCubeNode node, string name, IPEndPoint endPoint, Func<Task> start, IAsyncDisposable frontEnd, string option)
    {
        try
        {
            await start().ConfigureAwait(false);
        }
        catch (SocketException ex)
        {
            await frontEnd.DisposeAsync().ConfigureAwait(false);
            throw new InvalidOperationException($"node {node.Self}: the {name} front-end cannot listen on {endPoint}: {ex.Message} (is another memcached or cube running? use {option})", ex);
        }

        node.AddListener(name, endPoint.ToString());
    }

    private sealed class NoFrontEnd : IAsyncDisposable
    {
        public static readonly NoFrontEnd Instance = new();

        public ValueTask DisposeAsync() => ValueTask.CompletedTask;
    }
}
