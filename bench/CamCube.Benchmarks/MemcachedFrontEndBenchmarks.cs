using System.Buffers;
using System.IO.Pipelines;
using System.Text;
using BenchmarkDotNet.Attributes;
using CamCube.Memcached;
using CamCube.Services.Cache;
using CamCube.Services.Cache.FrontEnd;
using CamCube.Testing;
using Microsoft.Extensions.Logging.Abstractions;

namespace CamCube.Benchmarks;

/// <summary>
/// One memcached get or set through the real front-end code (cache issue: "no allocation per
/// request on the get/set hot path"): the request is written into an in-memory pipe, the
/// front-end's connection parses it, the cache service executes it, and the reply is read back from
/// the other pipe, without sockets. Goal: 0 bytes allocated per operation, on every thread
/// (MemoryDiagnoser counts the whole process).
/// <list type="bullet">
/// <item>A key rooted on the front-end's own server (<see cref="KeyOnAnotherServer"/> false): a 1-node
/// in-memory cube; the local path answers on the benchmark's thread, before the flush returns.</item>
/// <item>A key rooted on another server: the front-end on (0,0,0) of a real-time 3x3x3 in-memory cube
/// sends the request through its node's loop to the key's root, 2 hops away (a get via the closest
/// of its hot-spot replicas), and the connection writes the reply from a thread-pool thread while
/// the benchmark's thread waits for it.</item>
/// </list>
/// </summary>
[MemoryDiagnoser]
public class MemcachedFrontEndBenchmarks
{
    /// <summary>Exchanges per invocation.</summary>
    public const int OperationCount = 1_000;

    private const int ValueBytes = 100;
    private static readonly TorusShape s_remoteShape = new(3, 3, 3);
    private static readonly TimeSpan s_replyTimeout = TimeSpan.FromSeconds(30);

    private readonly Pipe _requests = new(new PipeOptions(readerScheduler: PipeScheduler.Inline, writerScheduler: PipeScheduler.Inline, useSynchronizationContext: false));
    private readonly Pipe _replies = new(new PipeOptions(readerScheduler: PipeScheduler.Inline, writerScheduler: PipeScheduler.Inline, useSynchronizationContext: false));
    private readonly ManualResetEventSlim _replied = new();
    private readonly Action _onReply;
    private RealTimeCube? _cube;
    private MemcachedFrontEnd _frontEnd = null!;
    private Task _serving = null!;
    private byte[] _get = [];
    private byte[] _set = [];
    private int _getReplyBytes;

    /// <summary>Creates the benchmark.</summary>
    public MemcachedFrontEndBenchmarks() => _onReply = _replied.Set;

    /// <summary>Gets or sets whether the key is rooted on another server than the front-end's.</summary>
    [Params(false, true)]
    public bool KeyOnAnotherServer { get; set; }

    /// <summary>Starts the cube and a client of its front-end, stores the key and warms the pools.</summary>
    [GlobalSetup]
    public void Setup()
    {
        CacheService? service = null;
        var key = "bench:key";
        if (KeyOnAnotherServer)
        {
            _cube = RealTimeCube.StartAsync(s_remoteShape, n => n.Register(new CacheService()), TimeSpan.FromSeconds(60)).GetAwaiter().GetResult();
            service = _cube.InvokeAsync(() => _cube[default].GetService<CacheService>()!).GetAwaiter().GetResult();
            key = KeyTwoHopsAway();
        }
        else
        {
            // A root answers no write for a copy lease after it starts (an earlier life's copies may still answer).
            InMemoryCube.Start(new TorusShape(1, 1, 1), n => n.Register(service = new CacheService())).RunFor(new CacheOptions().CopyLease);
        }

        _frontEnd = new MemcachedFrontEnd(service!, new MemcachedFrontEndOptions(), NullLogger.Instance);
        _serving = _frontEnd.ServeAsync(new ClientPipe(_requests.Reader, _replies.Writer));
        _get = Encoding.ASCII.GetBytes($"get {key}\r\n");
        _set = Encoding.ASCII.GetBytes($"set {key} 5 0 {ValueBytes}\r\n{new string('v', ValueBytes)}\r\n");
        _getReplyBytes = $"VALUE {key} 5 {ValueBytes}\r\n".Length + ValueBytes + "\r\nEND\r\n".Length;
        for (var i = 0; i < 1_000; i++)
        {
            Exchange(_set, "STORED\r\n"u8.Length);
            Exchange(_get, _getReplyBytes);
        }

        // The last get filled the hot-spot copy that steady-state gets hit.
        Exchange(_get, _getReplyBytes);
    }

    /// <summary>Ends the client, the front-end and the cube.</summary>
    [GlobalCleanup]
    public void Cleanup()
    {
        _requests.Writer.Complete();
        _serving.GetAwaiter().GetResult();
        _frontEnd.DisposeAsync().AsTask().GetAwaiter().GetResult();
        _cube?.Dispose();
        _replied.Dispose();
    }

    /// <summary>A get that hits: <c>VALUE key 5 100</c>, the value and <c>END</c>.</summary>
    [Benchmark(OperationsPerInvoke = OperationCount)]
    public void Get()
    {
        for (var i = 0; i < OperationCount; i++)
        {
            Exchange(_get, _getReplyBytes);
        }
    }

    /// <summary>A set of the same key with a value of the same length: <c>STORED</c>.</summary>
    [Benchmark(OperationsPerInvoke = OperationCount)]
    public void Set()
    {
        for (var i = 0; i < OperationCount; i++)
        {
            Exchange(_set, "STORED\r\n"u8.Length);
        }
    }

    private static string KeyTwoHopsAway()
    {
        var keySpace = KeySpace.For(s_remoteShape);
        for (var i = 0; ; i++)
        {
            var key = "bench:remote:" + i;
            if (s_remoteShape.Distance(keySpace.GetServersForKey(CacheKeys.MemId(Encoding.ASCII.GetBytes(key)), 1)[0], default) == 2)
            {
                return key;
            }
        }
    }

    /// <summary>Sends one request and waits, without allocating, until its whole reply of <paramref name="replyBytes"/> bytes arrived.</summary>
    private void Exchange(byte[] request, int replyBytes)
    {
        _requests.Writer.Write(request);
        var flush = _requests.Writer.FlushAsync();
        if (!flush.IsCompleted)
        {
            throw new InvalidOperationException("The front-end did not take the request inline.");
        }

        flush.GetAwaiter().GetResult();
        while (true)
        {
            var reply = WaitFor(_replies.Reader.ReadAsync());
            var length = reply.Buffer.Length;
            if (length < replyBytes)
            {
                _replies.Reader.AdvanceTo(reply.Buffer.Start, reply.Buffer.End);
                continue;
            }

            _replies.Reader.AdvanceTo(reply.Buffer.End);
            if (length != replyBytes)
            {
                throw new InvalidOperationException($"Unexpected reply of {length} bytes, not {replyBytes}.");
            }

            return;
        }
    }

    /// <summary>Blocks until <paramref name="read"/> completes; a key rooted here is answered before it is asked for.</summary>
    private ReadResult WaitFor(ValueTask<ReadResult> read)
    {
        var awaiter = read.ConfigureAwait(false).GetAwaiter();
        if (!awaiter.IsCompleted)
        {
            if (!KeyOnAnotherServer)
            {
                throw new InvalidOperationException("The front-end did not answer inline: the request left the local path.");
            }

            // A continuation that sets an event: no task, no allocation.
            _replied.Reset();
            awaiter.UnsafeOnCompleted(_onReply);
            if (!_replied.Wait(s_replyTimeout))
            {
                throw new TimeoutException($"No reply from the front-end within {s_replyTimeout}.");
            }
        }

        return awaiter.GetResult();
    }

    /// <summary>The front-end's end of the two pipes.</summary>
    private sealed class ClientPipe(PipeReader input, PipeWriter output) : IDuplexPipe
    {
        public PipeReader Input { get; } = input;

        public PipeWriter Output { get; } = output;
    }
}
