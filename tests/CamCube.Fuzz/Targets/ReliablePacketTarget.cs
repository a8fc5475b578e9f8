using System.Buffers.Binary;
using CamCube.Packets;
using CamCube.Services.Reliable;

namespace CamCube.Fuzz.Targets;

/// <summary>
/// The reliable transport's receive path (docs/wire-format.md, "Reliable transport"): each record is
/// a payload that the endpoint of one node, <see cref="Receiver"/>, receives from the server the
/// control byte names, or a step of valid traffic of that endpoint's own (a message or a one-packet
/// exchange it sends), so that acknowledgements, not-root notices, resets, refusals, replies and busy
/// notices meet flows and exchanges that exist. Every node of the cube runs a
/// <see cref="ReliableService"/> with a request handler; the other nodes remember the last packet the
/// receiver sent them, and a record can take its flow id, sequence and copy byte from it, so the
/// fuzzer need not guess 8-byte ids; those of an odd index are silent (their endpoint never sees the
/// receiver's packets), so that the receiver's flows and exchanges to them stay open for the records' answers. The cube then runs on past the endpoint's time-outs; an exception
/// out of <c>OnDeliver</c>, <c>Poll</c> or a timer (the node counts and logs it) is a finding.
/// </summary>
public sealed class ReliablePacketTarget : IFuzzTarget
{
    /// <summary>The reliable service's id in the cube.</summary>
    public const ushort ServiceId = 0x0520;

    /// <summary>Control bits 5-6: what the record does.</summary>
    public const int ActionShift = 5;

    /// <summary>Action: the body (after its hop-count byte) is a payload the receiver gets from the named server.</summary>
    public const byte Deliver = 0;

    /// <summary>Action: as <see cref="Deliver"/>, with bytes 3-15 (copy, flow id, sequence) those of the last packet the receiver sent that server.</summary>
    public const byte Echo = 1;

    /// <summary>Action: the receiver sends a message (to the named server, or to a key) whose length the body gives.</summary>
    public const byte SendMessage = 2;

    /// <summary>Action: the receiver opens an exchange (with the named server, or a key's root) whose request is the body.</summary>
    public const byte OpenExchange = 3;

    /// <summary>Control bit 7: the requests waiting for their reply are answered, then virtual time moves on (retransmissions, time-outs).</summary>
    public const byte Wait = 0x80;

    /// <summary>How far virtual time moves on after a record with <see cref="Wait"/>.</summary>
    public static readonly TimeSpan WaitTime = TimeSpan.FromMilliseconds(300);

    /// <summary>How long the cube runs on after the last record: past the progress time-out and the idle flows' eviction.</summary>
    public static readonly TimeSpan SettleTime = TimeSpan.FromSeconds(5);

    /// <summary>The node whose endpoint the records reach.</summary>
    public static readonly Coordinate Receiver = new(1, 1, 1);

    /// <summary>Small limits and short time-outs, so that one input reaches refusals, full tables, evictions and time-outs.</summary>
    public static ReliableOptions Options { get; } = new()
    {
        MessageBytesMax = 64 * 1024,
        ReassemblyBytesMax = 96 * 1024,
        WindowPacketsMax = 8,
        QueuedMessagesMax = 16,
        HeldPacketsMax = 16,
        OpenExchangesMax = 16,
        AnsweredExchangesPerPeerMax = 4,
        ProgressTimeout = TimeSpan.FromSeconds(2),
        ReceiveFlowIdleTimeout = TimeSpan.FromSeconds(3),
    };

    /// <inheritdoc/>
    public string Name => "reliable";

    /// <inheritdoc/>
    public string Description => "reliable transport payloads from any server into a node's ReliableEndpoint (OnDeliver, Poll, timers)";

    /// <inheritdoc/>
    public void Run(byte[] input)
    {
        ArgumentNullException.ThrowIfNull(input);
        var services = new Dictionary<Coordinate, Peer>();
        var cube = new FrameCube(n =>
        {
            var service = new Peer(n.Self);
            services[n.Self] = service;
            n.Register(service);
        });
        var receiver = services[Receiver];
        foreach (var (control, body) in InputRecords.Split(input))
        {
            var source = FrameCube.Shape.CoordinateAt((control & 0x1F) % FrameCube.Shape.ServerCount);
            var action = (control >> ActionShift) & 3;
            if (action is SendMessage or OpenExchange)
            {
                receiver.Start(action, source, body);
                cube.RunFor(TimeSpan.Zero);
            }
            else if (body.Count > 0)
            {
                var payload = body[1..].AsSpan(0, Math.Min(body.Count - 1, cube.PacketCapacityBytes - PacketHeader.SizeBytes)).ToArray();
                if (action == Echo)
                {
                    services[source].EchoInto(payload);
                }

                var frame = PacketHeaderTarget.Frame(ServiceId, DestinationKind.Server, source, Receiver, payload);
                frame[PacketHeader.HopCountOffset] = body[0];
                cube.Deliver(Receiver, (LinkDirection)(body[0] % LinkDirections.Count), frame);
            }

            if ((control & Wait) != 0)
            {
                foreach (var peer in services.Values)
                {
                    peer.AnswerDeferred();
                }

                cube.RunFor(WaitTime);
            }
        }

        cube.Settle(Name, SettleTime);
    }

    /// <summary>Makes one payload of kind <paramref name="kind"/> with the 16-byte prefix and <paramref name="rest"/> after it.</summary>
    public static byte[] Payload(byte kind, byte flags, byte copy, ulong flowId, uint sequence, ReadOnlySpan<byte> rest)
    {
        var payload = new byte[16 + rest.Length];
        payload[0] = ReliableOptions.DefaultPacketTag;
        payload[1] = kind;
        payload[2] = flags;
        payload[3] = copy;
        BinaryPrimitives.WriteUInt64BigEndian(payload.AsSpan(4), flowId);
        BinaryPrimitives.WriteUInt32BigEndian(payload.AsSpan(12), sequence);
        rest.CopyTo(payload.AsSpan(16));
        return payload;
    }

    /// <summary>The seeds: one packet of every kind, built from the wire format, and exchanges of them with real flows and exchanges.</summary>
    public static IEnumerable<(string Target, string Name, byte[] Bytes)> Seeds()
    {
        const string target = "reliable";
        var from = (byte)FrameCube.Shape.IndexOf(new Coordinate(0, 1, 1));
        var silent = (byte)1;
        var far = (byte)FrameCube.Shape.IndexOf(new Coordinate(2, 2, 0));
        const ulong flow = 0x0000_1234_0000_0001UL;
        byte[] Record(byte hops, byte[] payload) => [hops, .. payload];
        byte[] Data(byte flags, uint sequence, uint firstUnacked, uint length, uint offset, KeyCoordinate key, byte[] fragment)
        {
            var rest = new byte[20 + fragment.Length];
            BinaryPrimitives.WriteUInt32BigEndian(rest, firstUnacked);
            BinaryPrimitives.WriteUInt32BigEndian(rest.AsSpan(4), length);
            BinaryPrimitives.WriteUInt32BigEndian(rest.AsSpan(8), offset);
            key.Write(rest.AsSpan(12));
            fragment.CopyTo(rest.AsSpan(20));
            return Payload(1, flags, 0, flow, sequence, rest);
        }

        byte[] Ack(uint cumulative, params (uint Start, uint End)[] blocks)
        {
            var rest = new byte[8 + (8 * blocks.Length)];
            BinaryPrimitives.WriteUInt32BigEndian(rest, cumulative);
            rest[4] = (byte)blocks.Length;
            for (var i = 0; i < blocks.Length; i++)
            {
                BinaryPrimitives.WriteUInt32BigEndian(rest.AsSpan(8 + (8 * i)), blocks[i].Start);
                BinaryPrimitives.WriteUInt32BigEndian(rest.AsSpan(12 + (8 * i)), blocks[i].End);
            }

            return Payload(2, 0, 0, flow, 0, rest);
        }

        byte[] Root(byte kind, byte flags, Coordinate root)
        {
            var rest = new byte[6];
            BinaryPrimitives.WriteUInt16BigEndian(rest, (ushort)root.X);
            BinaryPrimitives.WriteUInt16BigEndian(rest.AsSpan(2), (ushort)root.Y);
            BinaryPrimitives.WriteUInt16BigEndian(rest.AsSpan(4), (ushort)root.Z);
            return Payload(kind, flags, 0, flow, 0, rest);
        }

        byte[] Request(byte flags, uint lifeOrAge, KeyCoordinate key, byte[] body)
        {
            var rest = new byte[16 + body.Length];
            BinaryPrimitives.WriteUInt64BigEndian(rest, flow);
            key.Write(rest.AsSpan(8));
            body.CopyTo(rest.AsSpan(16));
            return Payload(5, flags, 1, flow, lifeOrAge, rest);
        }

        var deliver = from;
        var echo = (byte)(silent | (Echo << ActionShift));
        var send = (byte)(silent | (SendMessage << ActionShift));
        var ask = (byte)(silent | (OpenExchange << ActionShift));
        var key = KeyCoordinate.At(Receiver, 3);
        yield return (target, "data", InputRecords.Join((deliver, Record(2, Data(0, 0, 0, 5, 0, default, [1, 2, 3, 4, 5])))));
        yield return (target, "data-to-key", InputRecords.Join((deliver, Record(2, Data(1, 0, 0, 3, 0, key, [7, 8, 9])))));
        yield return (target, "data-two-fragments-out-of-order", InputRecords.Join(
            (deliver, Record(1, Data(0, 1, 0, 6, 3, default, [4, 5, 6]))),
            ((byte)(deliver | Wait), Record(1, Data(0, 0, 0, 6, 0, default, [1, 2, 3])))));
        yield return (target, "data-past-start", InputRecords.Join((deliver, Record(1, Data(0, 5, 4, 1, 0, default, [1])))));
        yield return (target, "data-too-large", InputRecords.Join((deliver, Record(1, Data(0, 0, 0, 1 << 20, 0, default, [1, 2])))));
        yield return (target, "ack", InputRecords.Join((send, [0, 4, 1]), (echo, Record(1, Ack(1)))));
        yield return (target, "ack-with-sack", InputRecords.Join((send, [0x08, 0, 0]), ((byte)(echo | Wait), Record(1, Ack(0, (2, 4), (5, 6))))));
        yield return (target, "not-root", InputRecords.Join((send, [0, 0, silent, 3, 1]), (echo, Record(1, Root(3, 0, new Coordinate(2, 2, 0))))));
        yield return (target, "reset", InputRecords.Join((send, [0, 8, 0]), (echo, Record(1, Root(4, 0, default)))));
        yield return (target, "refused", InputRecords.Join((send, [0x10, 0, 0]), (echo, Record(1, Root(8, 1, default)))));
        yield return (target, "request", InputRecords.Join((deliver, Record(3, Request(2, 0, default, [1, 2, 3])))));
        yield return (target, "request-to-key", InputRecords.Join((deliver, Record(3, Request(3, 0, key, [0, 2, 3]))), (deliver, Record(3, Request(3, 0, key, [0, 2, 3])))));
        yield return (target, "reply", InputRecords.Join((ask, [0, 2, 3]), (echo, Record(1, Payload(6, 0, 1, flow, 0, [3, 2, 1])))));
        yield return (target, "busy", InputRecords.Join((ask, [0, 2, 3]), ((byte)(echo | Wait), Record(1, Payload(7, 0, 1, flow, 0, [])))));
        yield return (target, "exchange-to-key-not-root", InputRecords.Join((ask, [0, 0, silent, 1, 1]), (echo, Record(1, Root(3, 0, FrameCube.Shape.CoordinateAt(far))))));
        yield return (target, "short", InputRecords.Join((deliver, [0, ReliableOptions.DefaultPacketTag, 1, 0])));
    }

    /// <summary>A reliable service that remembers the last packet <see cref="Receiver"/> sent it, and at the receiver starts the harness's own traffic.</summary>
    private sealed class Peer : ReliableService
    {
        private readonly Coordinate _self;
        private readonly byte[] _lastFromReceiver = new byte[16];
        private readonly List<(Coordinate Source, ulong Id)> _deferred = [];
        private bool _heard;

        public Peer(Coordinate self)
            : this(self, new RequestBox())
        {
        }

        private Peer(Coordinate self, RequestBox box)
            : base(ReliablePacketTarget.ServiceId, "reliable", static (in ReliableMessage _) => { }, box.Take, Options)
        {
            _self = self;
            box.Owner = this;
        }

        public override bool OnDeliver(Packet packet)
        {
            ArgumentNullException.ThrowIfNull(packet);
            var payload = packet.Payload;
            if (packet.Source != Receiver || _self == Receiver)
            {
                return base.OnDeliver(packet);
            }

            if (payload.Length >= 16)
            {
                payload[..16].CopyTo(_lastFromReceiver);
                _heard = true;
            }

            return FrameCube.Shape.IndexOf(_self) % 2 == 0 && base.OnDeliver(packet);
        }

        /// <summary>Copies the copy byte, flow id and sequence of the last packet from the receiver into <paramref name="payload"/>.</summary>
        public void EchoInto(byte[] payload)
        {
            if (_heard)
            {
                _lastFromReceiver.AsSpan(3, Math.Min(13, Math.Max(0, payload.Length - 3))).CopyTo(payload.AsSpan(Math.Min(3, payload.Length)));
            }
        }

        /// <summary>The receiver's own traffic: a message whose length the body's first two bytes give (times 8), or an exchange whose request is the body; to a key (home at the server the third byte names, w the fourth) when the fifth byte is odd.</summary>
        public void Start(int action, Coordinate server, ArraySegment<byte> body)
        {
            var toKey = body.Count >= 5 && (body[4] & 1) != 0;
            var key = toKey ? KeyCoordinate.At(FrameCube.Shape.CoordinateAt(body[2] % FrameCube.Shape.ServerCount), body[3]) : default;
            if (action == SendMessage)
            {
                var length = body.Count >= 2 ? ((body[0] << 8) | body[1]) * 8 : body.Count;
                var message = new byte[Math.Min(length, (2 * Options.MessageBytesMax) + 1)];
                _ = toKey
                    ? Endpoint.Send(key, message, null, static (_, _) => { }, null)
                    : Endpoint.Send(server, message, null, static (_, _) => { }, null);
                return;
            }

            var request = body.AsSpan(0, Math.Min(body.Count, Endpoint.ExchangeRequestBytesMax));
            _ = toKey
                ? Endpoint.Request(key, request, static (_, in _, _) => { }, null, out _)
                : Endpoint.Request(server, request, static (_, in _, _) => { }, null, out _);
        }

        /// <summary>Answers the requests whose handler waited (their first byte 0), as a service answering later would.</summary>
        public void AnswerDeferred()
        {
            foreach (var (source, id) in _deferred)
            {
                Endpoint.Reply(source, id, [1]);
            }

            _deferred.Clear();
        }

        /// <summary>Takes a request: answered at once with its own bytes, or, when its first byte is 0, at the next record.</summary>
        private void Take(in ExchangeRequest request)
        {
            if (request.Body.Length > 0 && request.Body[0] == 0)
            {
                _deferred.Add((request.Source, request.ExchangeId));
                return;
            }

            Endpoint.Reply(request.Source, request.ExchangeId, request.Body);
        }

        /// <summary>Hands requests to the service, which the base constructor cannot name.</summary>
        private sealed class RequestBox
        {
            public Peer? Owner { get; set; }

            public void Take(in ExchangeRequest request) => Owner!.Take(request);
        }
    }
}
