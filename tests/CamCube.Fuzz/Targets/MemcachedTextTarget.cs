using System.Buffers;
using System.IO.Pipelines;
using System.Net;
using CamCube.Memcached;
using CamCube.Runtime;
using CamCube.Services.Cache;
using CamCube.Services.Cache.FrontEnd;
using CamCube.Testing;

namespace CamCube.Fuzz.Targets;

/// <summary>
/// The memcached text parser: the input is what a client sends a front-end of a 2x2x1 cube, written
/// in pieces (so lines and values also arrive split), then the client closes. The cube runs in real
/// time on its own loop thread, as a node's does, and is kept for the whole process; each input gets
/// a fresh front-end and connection and ends with flush_all. Every reply is fine, errors included;
/// a finding is an exception the front-end caught and logged for the connection, or a connection
/// still open <see cref="EndTimeout"/> after its client closed.
/// </summary>
public sealed class MemcachedTextTarget : IFuzzTarget
{
    /// <summary>How long a connection may take to answer what is left and close after its client closed (a request times out after 2 s here).</summary>
    public static readonly TimeSpan EndTimeout = TimeSpan.FromSeconds(10);

    private static readonly TorusShape s_shape = new(2, 2, 1);
    private static readonly ExceptionLog s_log = new();
    private static readonly Lazy<RealTimeCube> s_cube = new(() => RealTimeCube.StartAsync(
        s_shape,
        n => n.Register(new CacheService(new CacheOptions { RequestTimeout = TimeSpan.FromSeconds(2) })),
        TimeSpan.FromSeconds(30),
        new InMemoryCubeOptions
        {
            LoggerFactory = s_log,
            NodeOptions = () => new NodeOptions { PublishMetrics = false, HeartbeatInterval = TimeSpan.FromMilliseconds(5), HeartbeatTimeout = TimeSpan.FromSeconds(5) },
        }).GetAwaiter().GetResult());

    /// <inheritdoc/>
    public string Name => "memcached";

    /// <inheritdoc/>
    public string Description => "memcached text protocol into a front-end (MemcachedConnection)";

    /// <inheritdoc/>
    public void Run(byte[] input)
    {
        ArgumentNullException.ThrowIfNull(input);
        var service = s_cube.Value[new Coordinate(0, 0, 0)].GetService<CacheService>()!;
        var log = new ExceptionLog();
        var frontEnd = new MemcachedFrontEnd(service, new MemcachedFrontEndOptions { EndPoint = new IPEndPoint(IPAddress.Loopback, 0) }, log.CreateLogger("memcached"));
        var client = new Client();
        var serving = frontEnd.ServeAsync(client);
        var replies = client.DrainRepliesAsync();

        // Pieces of a length that follows the input's, so the fuzzer also varies where lines split.
        var piece = 3 + (input.Length % 61);
        for (var offset = 0; offset < input.Length && !serving.IsCompleted; offset += piece)
        {
            client.Send(input.AsSpan(offset, Math.Min(piece, input.Length - offset)));
        }

        client.EndRequests();
        var ended = serving.Wait(EndTimeout);
        log.ThrowIfAny(Name);
        s_log.ThrowIfAny(Name);
        if (!ended)
        {
            throw new FuzzFindingException($"{Name}: the connection was still open {EndTimeout.TotalSeconds} s after the client closed its side.");
        }

        replies.GetAwaiter().GetResult();
        frontEnd.DisposeAsync().AsTask().GetAwaiter().GetResult();
        var flush = service.FlushAllAsync().GetAwaiter().GetResult();
        if (flush.Status != CacheStatus.Ok)
        {
            throw new FuzzFindingException($"{Name}: flush_all after the input answered {flush.Status}, not Ok: the cube is no longer healthy.");
        }
    }

    /// <summary>Both halves of the client's connection, without back-pressure (the input is bounded).</summary>
    private sealed class Client : IDuplexPipe
    {
        private static readonly PipeOptions s_options = new(pauseWriterThreshold: 0, useSynchronizationContext: false);
        private readonly Pipe _requests = new(s_options);
        private readonly Pipe _replies = new(s_options);

        public PipeReader Input => _requests.Reader;

        public PipeWriter Output => _replies.Writer;

        public void Send(ReadOnlySpan<byte> bytes)
        {
            _requests.Writer.Write(bytes);
            _requests.Writer.FlushAsync().AsTask().GetAwaiter().GetResult();
        }

        public void EndRequests() => _requests.Writer.Complete();

        /// <summary>Reads replies as they come until the front-end completes its side.</summary>
        public async Task DrainRepliesAsync()
        {
            while (true)
            {
                var result = await _replies.Reader.ReadAsync().ConfigureAwait(false);
                _replies.Reader.AdvanceTo(result.Buffer.End);
                if (result.IsCompleted)
                {
                    await _replies.Reader.CompleteAsync().ConfigureAwait(false);
                    return;
                }
            }
        }
    }
}
