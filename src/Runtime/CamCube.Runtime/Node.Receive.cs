using System.Buffers.Binary;
using CamCube.Packets;
using CamCube.Runtime.Upcalls;
using CamCube.Services;
using CamCube.Transport;

namespace CamCube.Runtime;

/// <content>The receive path: validate a frame, hand it to its service, continue routing.</content>
public sealed partial class Node
{
    /// <inheritdoc/>
    void ITransportSink.OnFrameReceived(LinkDirection link, Packet frame)
    {
        if (!_running)
        {
            frame.Release();
            return;
        }

        // A transport that hands over packets (in memory, simulated) may bring a header over a payload
        // shared by a multi-target send: this node takes a whole copy, as a datagram would give it.
        frame = frame.Gather(Pool);
        CountOnLink((int)link, LinkCounters.PacketsReceivedIndex, frame.Length);

        var problem = Validate(frame);
        if (problem is not null)
        {
            DropWithLog(frame, DropReason.Malformed, problem);
            return;
        }

        _liveness.OnFrameHeard(link);

        // Most frames in a row are for the same service: the last slot found is checked first.
        var serviceId = frame.ServiceId;
        var slot = _lastReceivedSlot;
        if (slot is null || slot.Id != serviceId || !slot.Registered)
        {
            if (!_slotsById.TryGetValue(serviceId, out slot))
            {
                DropWithLog(frame, DropReason.UnknownService, $"service id 0x{serviceId:X4} on link {link.ToShortName()}");
                return;
            }

            _lastReceivedSlot = slot;
        }

        slot.Counters.PacketsReceived++;
        slot.Counters.BytesReceived += frame.Length;
        frame.ArrivalLink = link;
        if (frame.DestinationKind == DestinationKind.Neighbor)
        {
            if (TryUpcall<NeighborFrameUpcall, bool>(slot, new NeighborFrameUpcall(frame, link), frame, out var kept) && !kept)
            {
                frame.Release();
            }

            return;
        }

        // The hop the packet just took is spent.
        frame.HopCount++;
        frame.HopLimit--;
        ContinueRouting(slot, frame, transit: true);
    }

    /// <inheritdoc/>
    void ITransportSink.OnLinkRoom(LinkDirection link)
    {
        if (_running)
        {
            Pump(link);
        }
    }

    /// <inheritdoc/>
    void ITransportSink.OnLinkStatus(LinkDirection link, bool up)
    {
        if (_running)
        {
            _liveness.OnTransportLinkStatus(link, up);
        }
    }

    /// <summary>Returns null for a well-formed frame, or what is wrong with it.</summary>
    private string? Validate(Packet frame)
    {
        var bytes = frame.Frame;
        if (bytes.Length < PacketHeader.SizeBytes)
        {
            return $"frame of {bytes.Length} bytes is shorter than the {PacketHeader.SizeBytes}-byte header";
        }

        if (bytes[PacketHeader.VersionOffset] != PacketHeader.Version)
        {
            return $"wire format version {bytes[PacketHeader.VersionOffset]}, expected {PacketHeader.Version}";
        }

        if (bytes[PacketHeader.KindOffset] > (byte)DestinationKind.Key)
        {
            return $"destination kind {bytes[PacketHeader.KindOffset]} is not 0, 1 or 2";
        }

        var payloadLength = BinaryPrimitives.ReadUInt16BigEndian(bytes[PacketHeader.PayloadLengthOffset..]);
        if (payloadLength != bytes.Length - PacketHeader.SizeBytes)
        {
            return $"payload length field says {payloadLength} bytes but the frame carries {bytes.Length - PacketHeader.SizeBytes}";
        }

        if (!Shape.Contains(frame.Source) || !Shape.Contains(frame.DestinationServer))
        {
            return $"source {frame.Source} or destination {frame.DestinationServer} is outside the torus {Shape}";
        }

        return null;
    }

    private void Deliver(ServiceSlot slot, Packet packet)
    {
        slot.Counters.PacketsDelivered++;
        if (TryUpcall<DeliverUpcall, bool>(slot, new DeliverUpcall(packet), packet, out var kept) && !kept)
        {
            packet.Release();
        }
    }

    internal void DropWithLog(Packet packet, DropReason reason, string detail)
    {
        Counters.CountDrop(reason);
        _dropLog.Dropped(Self, reason, detail);
        packet.Release();
    }

    /// <summary>
    /// Drops a routed packet of <paramref name="slot"/>'s service (counted, and logged with
    /// <paramref name="detail"/> if given); if the service hears of its drops and the reason is one
    /// it is told of, a notice goes to the packet's source first (<see cref="DropNoticeService"/>).
    /// </summary>
    internal void DropRouted(ServiceSlot slot, Packet packet, DropReason reason, string? detail = null)
    {
        if (slot.DropObserver is not null && _running && packet.DestinationKind != DestinationKind.Neighbor && DropNoticeService.IsNoticed(reason))
        {
            // A flood of drops sends no flood of notices: at most the node's budget a second.
            if (_dropNoticeBudget.TryTake())
            {
                _dropNotices.Notify(packet, reason);
            }
            else
            {
                Counters.DropNoticesSuppressed++;
            }
        }

        if (detail is null)
        {
            DropQuietly(packet, reason);
        }
        else
        {
            DropWithLog(packet, reason, detail);
        }
    }

    /// <summary>A drop notice reached the dropped packet's source: the sending service hears of it.</summary>
    internal void DeliverDropNotice(Packet notice)
    {
        if (!DropNoticeService.TryRead(notice, out var serviceId, out _))
        {
            Counters.CountDrop(DropReason.Malformed);
            return;
        }

        if (_slotsById.TryGetValue(serviceId, out var slot) && slot.DropObserver is not null && slot.Registered)
        {
            TryUpcall<DropUpcall, bool>(slot, new DropUpcall(notice), null, out _);
        }
    }

    internal void DropQuietly(Packet packet, DropReason reason)
    {
        Counters.CountDrop(reason);
        packet.Release();
    }
}
