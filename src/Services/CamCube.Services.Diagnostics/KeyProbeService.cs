using System.Buffers.Binary;
using CamCube.Packets;

namespace CamCube.Services.Diagnostics;

/// <summary>
/// Finds which server is a key's root right now: a probe is routed to the key, the root answers
/// with a reply routed back to the asker by server. Operators use it to check key routing end to end.
/// </summary>
/// <remarks>Payload: type (1 probe, 2 reply) and a 4-byte sequence number.</remarks>
public sealed class KeyProbeService() : ServiceBase(ServiceId, "key-probe")
{
    /// <summary>The key probe's id.</summary>
    public new const ushort ServiceId = 0x0012;

    private const byte Probe = 1;
    private const byte Reply = 2;

    private readonly Dictionary<uint, (TaskCompletionSource<Coordinate?> Completion, ITimer Timer)> _pending = [];
    private uint _nextSequence;

    /// <summary>Routes a probe to <paramref name="key"/>; completes with the root that answered, or null after <paramref name="timeout"/>.</summary>
    public Task<Coordinate?> FindRootAsync(KeyCoordinate key, TimeSpan timeout)
    {
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(timeout, TimeSpan.Zero);
        var sequence = ++_nextSequence;
        var completion = new TaskCompletionSource<Coordinate?>(TaskCreationOptions.RunContinuationsAsynchronously);
        var timer = Node.CreateTimer(
            () =>
            {
                if (_pending.Remove(sequence, out var entry))
                {
                    entry.Completion.TrySetResult(null);
                }
            },
            timeout,
            Timeout.InfiniteTimeSpan);
        _pending.Add(sequence, (completion, timer));
        var packet = Node.CreatePacket();
        packet.PayloadArea[0] = Probe;
        BinaryPrimitives.WriteUInt32BigEndian(packet.PayloadArea[1..], sequence);
        packet.PayloadLength = 5;
        Node.RouteToKey(packet, key);
        return completion.Task;
    }

    /// <inheritdoc/>
    public override bool OnDeliver(Packet packet)
    {
        ArgumentNullException.ThrowIfNull(packet);
        var payload = packet.Payload;
        if (payload.Length != 5)
        {
            return false;
        }

        if (payload[0] == Probe)
        {
            payload[0] = Reply;
            Node.RouteToServer(packet, packet.Source);
            return true;
        }

        if (_pending.Remove(BinaryPrimitives.ReadUInt32BigEndian(payload[1..]), out var entry))
        {
            entry.Timer.Dispose();
            entry.Completion.TrySetResult(packet.Source);
        }

        return false;
    }
}
