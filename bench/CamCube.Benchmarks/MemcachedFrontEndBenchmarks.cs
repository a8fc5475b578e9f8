using System.Buffers;
using System.IO.Pipelines;
using System.Text;
using BenchmarkDotNet.Attributes;
using CamCube.Services.Cache;
using CamCube.Services.Cache.FrontEnd;
using CamCube.Testing;
using Microsoft.Extensions.Logging.Abstractions;

namespace CamCube.Benchmarks;

/// <summary>
/// One memcached get or set through the real front-end code (cache issue: "no allocation per
/// request on the get/set hot path"): the request is written into an in-memory pipe, the
/// front-end's connection parses it, the cache service of a 1-node in-memory cube executes it, and
/// the reply is read back from the other pipe. Both pipes schedule inline, so the whole exchange
/// runs on the benchmark's thread, without sockets. Goal: 0 bytes allocated per operation.
/// </summary>
[MemoryDiagnoser]
public class MemcachedFrontEndBenchmarks
{
    /// <summary>Exchanges per invocation.</summary>
    public const int OperationCount = 1_000;

    private static readonly byte[] s_get = Encoding.ASCII.GetBytes("get bench:key\r\n");
    private static readonly byte[] s_set = Encoding.ASCII.GetBytes("set bench:key 5 0 100\r\n" + new string('v', 100) + "\r\n");

    private readonly Pipe _requests = new(new PipeOptions(readerScheduler: PipeScheduler.Inline, writerScheduler: PipeScheduler.Inline, useSynchronizationContext: false));
    private readonly Pipe _replies = new(new PipeOptions(readerScheduler: PipeScheduler.Inline, writerScheduler: PipeScheduler.Inline, useSynchronizationContext: false));
    private MemcachedFrontEnd _frontEnd = null!;
    private Task _serving = null!;

    /// <summary>Starts a 1-node cube and a client of its front-end, stores the key and warms the pools.</summary>
    [GlobalSetup]
    public void Setup()
    {
        CacheService? service = null;
        InMemoryCube.Start(new TorusShape(1, 1, 1), n => n.Register(service = new CacheService()));
        _frontEnd = new MemcachedFrontEnd(service!, new MemcachedFrontEndOptions(), NullLogger.Instance);
        _serving = _frontEnd.ServeAsync(new ClientPipe(_requests.Reader, _replies.Writer));
        for (var i = 0; i < 100; i++)
        {
            Exchange(s_set, "STORED\r\n"u8.Length);
            Exchange(s_get, 0);
        }
    }

    /// <summary>Ends the client and the front-end.</summary>
    [GlobalCleanup]
    public void Cleanup()
    {
        _requests.Writer.Complete();
        _serving.GetAwaiter().GetResult();
        _frontEnd.DisposeAsync().AsTask().GetAwaiter().GetResult();
    }

    /// <summary>A get that hits: <c>VALUE bench:key 5 100</c>, the value and <c>END</c>.</summary>
    [Benchmark(OperationsPerInvoke = OperationCount)]
    public void Get()
    {
        for (var i = 0; i < OperationCount; i++)
        {
            Exchange(s_get, 0);
        }
    }

    /// <summary>A set of the same key with a value of the same length: <c>STORED</c>.</summary>
    [Benchmark(OperationsPerInvoke = OperationCount)]
    public void Set()
    {
        for (var i = 0; i < OperationCount; i++)
        {
            Exchange(s_set, "STORED\r\n"u8.Length);
        }
    }

    /// <summary>Sends one request; the front-end answers before the flush returns. Checks the reply's length (0: any).</summary>
    private void Exchange(byte[] request, int replyBytes)
    {
        _requests.Writer.Write(request);
        var flush = _requests.Writer.FlushAsync();
        if (!flush.IsCompleted)
        {
            throw new InvalidOperationException("The front-end did not consume the request inline.");
        }

        flush.GetAwaiter().GetResult();
        if (!_replies.Reader.TryRead(out var reply))
        {
            throw new InvalidOperationException("The front-end did not answer inline: the request left the local path.");
        }

        if (replyBytes != 0 && reply.Buffer.Length != replyBytes)
        {
            throw new InvalidOperationException($"Unexpected reply of {reply.Buffer.Length} bytes.");
        }

        _replies.Reader.AdvanceTo(reply.Buffer.End);
    }

    /// <summary>The front-end's end of the two pipes.</summary>
    private sealed class ClientPipe(PipeReader input, PipeWriter output) : IDuplexPipe
    {
        public PipeReader Input { get; } = input;

        public PipeWriter Output { get; } = output;
    }
}
