using BenchmarkDotNet.Attributes;
using CamCube.Services.Reliable;
using CamCube.Testing;

namespace CamCube.Benchmarks;

/// <summary>
/// The reliable transport's cost per packet (camcubeos 5.4) on the in-memory transport: a message
/// goes from (0,0,0) to (3,0,0) of a 7x1x1 ring, three hops, fragmented, acknowledged packet by
/// packet, reassembled and delivered. Both endpoints and the runtime between them run in the
/// measured loop, so 0 B here is 0 B on the send path and on the receive path. Goal: 0 bytes
/// allocated per packet in steady state. <see cref="SmallMessage"/> gives the cost per message of
/// one packet (its task is allocated per message); <see cref="SmallMessageWithCallback"/> the same
/// with the callback form, whose message state is pooled (goal: 0 B per message).
/// <see cref="OnePacketExchange"/> gives the cost of a one-packet request and its reply (the reply is
/// the acknowledgement; the responder keeps the reply for a duplicate): goal 0 B per exchange.
/// </summary>
[MemoryDiagnoser]
public class ReliableTransportBenchmarks
{
    /// <summary>The bytes of the large message: 1,000 fragments of the in-memory pool's packets.</summary>
    public const int LargeMessagePackets = 1_000;

    /// <summary>Small messages per invocation.</summary>
    public const int SmallMessages = 1_000;

    private static readonly Coordinate s_target = new(3, 0, 0);

    private InMemoryCube _cube = null!;
    private ReliableEndpoint _source = null!;
    private byte[] _large = null!;
    private byte[] _small = null!;
    private int _completed;

    private static readonly ReliableSendCompletion s_count = static (state, error) => ((ReliableTransportBenchmarks)state!)._completed += error is null ? 1 : 0;

    private static readonly ExchangeCompletion s_replied = static (object? state, in ExchangeReply reply, ReliableTransferException? error) =>
        ((ReliableTransportBenchmarks)state!)._completed += error is null ? 1 : 0;

    /// <summary>Starts the cube and warms pools, flows and the array pool.</summary>
    [GlobalSetup]
    public void Setup()
    {
        _cube = InMemoryCube.Start(new TorusShape(7, 1, 1), n =>
        {
            ReliableService? service = null;
            service = new ReliableService(0x0520, "reliable", static (in ReliableMessage _) => { }, (in ExchangeRequest request) => service!.Endpoint.Reply(request.Source, request.ExchangeId, request.Body));
            n.Register(service);
        });
        _source = _cube[new Coordinate(0, 0, 0)].GetService<ReliableService>()!.Endpoint;
        _large = new byte[LargeMessagePackets * _source.FragmentBytes];
        _small = new byte[100];
        for (var i = 0; i < 5; i++)
        {
            LargeMessage();
            SmallMessage();
            SmallMessageWithCallback();
            OnePacketExchange();
        }
    }

    /// <summary>Sends one message of <see cref="LargeMessagePackets"/> packets three hops and runs the loop until it is acknowledged; results are per packet.</summary>
    [Benchmark(OperationsPerInvoke = LargeMessagePackets)]
    public void LargeMessage() => Drain(_source.SendAsync(s_target, _large));

    /// <summary>Sends <see cref="SmallMessages"/> one-packet messages three hops; results are per message.</summary>
    [Benchmark(OperationsPerInvoke = SmallMessages)]
    public void SmallMessage()
    {
        Task last = Task.CompletedTask;
        for (var i = 0; i < SmallMessages; i++)
        {
            last = _source.SendAsync(s_target, _small);
        }

        Drain(last);
    }

    /// <summary>Sends <see cref="SmallMessages"/> one-packet messages three hops with a completion callback instead of a task; results are per message.</summary>
    [Benchmark(OperationsPerInvoke = SmallMessages)]
    public void SmallMessageWithCallback()
    {
        _completed = 0;
        for (var i = 0; i < SmallMessages; i++)
        {
            _source.Send(s_target, _small, owner: null, s_count, this);
        }

        _cube.RunUntilIdle();
        if (_completed != SmallMessages)
        {
            throw new InvalidOperationException($"{_completed} of {SmallMessages} messages were acknowledged when the loop went idle.");
        }
    }

    /// <summary>Runs <see cref="SmallMessages"/> one-packet exchanges three hops (request and echoed reply); results are per exchange.</summary>
    [Benchmark(OperationsPerInvoke = SmallMessages)]
    public void OnePacketExchange()
    {
        _completed = 0;
        for (var i = 0; i < SmallMessages; i++)
        {
            _source.Request(s_target, _small, s_replied, this, out _);
        }

        _cube.RunUntilIdle();
        if (_completed != SmallMessages)
        {
            throw new InvalidOperationException($"{_completed} of {SmallMessages} exchanges were answered when the loop went idle.");
        }
    }

    private void Drain(Task sent)
    {
        _cube.RunUntilIdle();
        if (!sent.IsCompletedSuccessfully)
        {
            throw new InvalidOperationException("The reliable benchmark's message was not acknowledged when the loop went idle.");
        }
    }
}
