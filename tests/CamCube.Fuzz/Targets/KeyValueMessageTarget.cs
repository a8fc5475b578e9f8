using System.Buffers.Binary;
using System.Text;
using CamCube.Services.KeyValue;
using CamCube.Services.KeyValue.Messages;
using CamCube.Services.KeyValue.Storage;
using CamCube.Services.Reliable;
using ProtoBuf;

namespace CamCube.Fuzz.Targets;

/// <summary>
/// The replicated key-value store's messages (protobuf-net bodies, docs/wire-format.md "Typed
/// messages"): each record is the body of one of the store's requests (the control byte's low 4 bits
/// pick the message type, its high bits the server asked), which <see cref="Asker"/> sends as the
/// store's peers do, over the reliable transport in an exchange (or a flow when it is larger than one
/// packet), to a <see cref="KeyValueService"/> of the cube. Every other node runs the store on memory
/// storage. The asker reads every answer. A request fails back to its asker with the exception its
/// handler threw (CamCube.Messaging's way to refuse one); that is the documented rejection when
/// protobuf cannot read the body as the message (the harness tries first), or when the exception is
/// an <see cref="ArgumentException"/> (what <c>Key.FromBytes</c> throws for a key that is not 20
/// bytes). Any other exception of a handler is a finding, as is a service fault or an exception a node logs.
/// </summary>
public sealed class KeyValueMessageTarget : IFuzzTarget
{
    /// <summary>The store's message types, by their number on the wire (KeyValueMessageType).</summary>
    public static readonly (ushort Type, string Name, Type Message)[] MessageTypes =
    [
        (1, "client-request", typeof(ClientRequest)), (2, "prepare", typeof(Prepare)), (3, "accept", typeof(Accept)),
        (4, "offer", typeof(Offer)), (5, "transfer", typeof(Transfer)), (6, "accept-batch", typeof(AcceptBatch)),
        (7, "purge", typeof(Purge)), (8, "drop-lease", typeof(DropLease)), (9, "renew-leases", typeof(RenewLeases)),
    ];

    /// <summary>The node that asks; it runs a bare reliable endpoint under the store's service id.</summary>
    public static readonly Coordinate Asker = new(0, 1, 1);

    /// <summary>How long the cube runs on after the last record: past the store's replication and request time-outs.</summary>
    public static readonly TimeSpan SettleTime = TimeSpan.FromSeconds(6);

    private const byte RequestKind = 1;
    private const byte FaultKind = 4;
    private const byte ReliableFlag = 1;
    private const ushort HandlerFault = 6;

    /// <inheritdoc/>
    public string Name => "kv-messages";

    /// <inheritdoc/>
    public string Description => "protobuf bodies of each key-value store message into a node's KeyValueService (through CamCube.Messaging)";

    /// <inheritdoc/>
    public void Run(byte[] input)
    {
        ArgumentNullException.ThrowIfNull(input);
        AskerService? asker = null;
        var cube = new FrameCube(n =>
        {
            if (n.Self == Asker)
            {
                n.Register(asker = new AskerService());
            }
            else
            {
                n.Register(new KeyValueService(new MemoryKeyValueStorage()));
            }
        });
        ulong requestId = 0;
        foreach (var (control, body) in InputRecords.Split(input))
        {
            var (type, _, message) = MessageTypes[(control & 0xF) % MessageTypes.Length];
            var server = FrameCube.Shape.CoordinateAt((control >> 4) % FrameCube.Shape.ServerCount);
            asker!.Ask(server == Asker ? new Coordinate(1, 1, 1) : server, type, ++requestId, body, Readable(message, body));
            cube.RunFor(TimeSpan.FromMilliseconds(50));
        }

        cube.Settle(Name, SettleTime);
        if (asker!.Finding is { } finding)
        {
            throw new FuzzFindingException($"{Name}: {finding}");
        }
    }

    /// <summary>The seeds: one valid message of each type, and a client's write followed by the replication messages of the same key.</summary>
    public static IEnumerable<(string Target, string Name, byte[] Bytes)> Seeds()
    {
        const string target = "kv-messages";
        var receiver = (byte)(FrameCube.Shape.IndexOf(new Coordinate(1, 1, 1)) << 4);
        var key = new byte[Key.SizeBytes];
        key[19] = 7;
        byte[] value = [1, 2, 3];
        var accept = new Accept { Key = key, Ballot = 1, Version = 1, Value = value, WriteId = 7 };
        accept.SupersededWriteIds.Add(6);
        var entry = new KeyVersionEntry { Key = key, Version = 1 };
        entry.RecentWriteIds.Add(7);
        entry.RecentWriteVersions.Add(1);
        var renew = new RenewLeases();
        renew.ReleasedKeys.Add(key);
        renew.ReleasedBallots.Add(1);
        object[] messages =
        [
            new ClientRequest { Key = key, Operation = KeyValueOperation.Put, Value = value, WriteId = 7, FirstAttempt = true },
            new Prepare { Key = key, Ballot = 1, Version = 1, WriteId = 7, Value = value },
            accept,
            new Offer { Reason = CopyReason.ReReplication, Entries = [entry] },
            new Transfer { Reason = CopyReason.ReReplication, Values = [new CopiedValue { Key = key, Version = 1, Value = value, WriteId = 7 }] },
            new AcceptBatch { Accepts = [accept] },
            new Purge { Key = key, Ballot = 1, Version = 1 },
            new DropLease { Key = key, Version = 1 },
            renew,
        ];
        for (var i = 0; i < messages.Length; i++)
        {
            yield return (target, MessageTypes[i].Name, InputRecords.Join(((byte)(receiver | i), Encode(messages[i]))));
        }

        yield return (target, "get-after-put", InputRecords.Join(
            ((byte)receiver, Encode(messages[0])),
            ((byte)receiver, Encode(new ClientRequest { Key = key, Operation = KeyValueOperation.Get }))));
        yield return (target, "not-protobuf", InputRecords.Join(((byte)(receiver | 2), [0xFF, 0xFF, 0xFF])));
    }

    /// <summary>Whether protobuf reads <paramref name="body"/> as a <paramref name="message"/>, as the service will try.</summary>
    private static bool Readable(Type message, ArraySegment<byte> body)
    {
        try
        {
            using var stream = new MemoryStream(body.Array!, body.Offset, body.Count, writable: false);
            Serializer.NonGeneric.Deserialize(message, stream);
            return true;
        }
#pragma warning disable CA1031 // Whatever protobuf throws, the body is not the message, and the service may refuse it.
        catch (Exception)
#pragma warning restore CA1031
        {
            return false;
        }
    }

    private static byte[] Encode(object message)
    {
        using var stream = new MemoryStream();
        Serializer.NonGeneric.Serialize(stream, message);
        return stream.ToArray();
    }

    /// <summary>Says why an answer is a finding, or null: a handler's fault other than a body protobuf cannot read.</summary>
    private static string? Judge(ReadOnlySpan<byte> answer, HashSet<ulong> unreadable)
    {
        if (answer.Length < 12 || answer[0] != FaultKind || unreadable.Contains(BinaryPrimitives.ReadUInt64BigEndian(answer[4..])) || BinaryPrimitives.ReadUInt16BigEndian(answer[2..]) != HandlerFault)
        {
            return null;
        }

        var text = Encoding.UTF8.GetString(answer[12..]);
        return text.Contains(": ArgumentException: ", StringComparison.Ordinal) ? null : $"a handler threw: {text}";
    }

    /// <summary>The asking node: a reliable endpoint under the store's id, that sends raw requests and reads every answer.</summary>
    private sealed class AskerService : ReliableService
    {
        public AskerService()
            : this(new AnswerBox())
        {
        }

        private AskerService(AnswerBox box)
            : base(KeyValueService.Id, "kv-asker", box.OnMessage, null, null)
        {
            box.Owner = this;
        }

        private readonly HashSet<ulong> _unreadable = [];

        /// <summary>Gets the first finding among the answers, if any.</summary>
        public string? Finding { get; private set; }

        /// <summary>Sends <paramref name="body"/> as request <paramref name="requestId"/> of <paramref name="type"/> to <paramref name="server"/>.</summary>
        public void Ask(Coordinate server, ushort type, ulong requestId, ReadOnlySpan<byte> body, bool readable)
        {
            if (!readable)
            {
                _unreadable.Add(requestId);
            }

            var bytes = new byte[12 + body.Length];
            bytes[0] = RequestKind;
            bytes[1] = ReliableFlag;
            BinaryPrimitives.WriteUInt16BigEndian(bytes.AsSpan(2), type);
            BinaryPrimitives.WriteUInt64BigEndian(bytes.AsSpan(4), requestId);
            body.CopyTo(bytes.AsSpan(12));
            if (bytes.Length <= Endpoint.ExchangeRequestBytesMax)
            {
                Endpoint.Request(server, bytes, static (state, in reply, error) => ((AskerService)state!).Note(error is null ? reply.Body : default), this, out _);
            }
            else
            {
                Endpoint.Send(server, bytes, null, static (_, _) => { }, null);
            }
        }

        private void Note(ReadOnlySpan<byte> answer) => Finding ??= Judge(answer, _unreadable);

        /// <summary>Hands answers that come as messages to the service, which the base constructor cannot name.</summary>
        private sealed class AnswerBox
        {
            public AskerService? Owner { get; set; }

            public void OnMessage(in ReliableMessage message) => Owner!.Note(message.Body);
        }
    }
}
