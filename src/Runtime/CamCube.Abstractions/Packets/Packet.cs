using System.Buffers.Binary;

namespace CamCube.Packets;

/// <summary>
/// A pooled frame: the header of wire format v1 followed by the payload, in a buffer of the
/// pool's fixed capacity.
/// </summary>
/// <remarks>
/// <para>Ownership: exactly one party owns a packet at a time and only the owner may touch it.
/// <see cref="PacketPool.Rent"/> makes the caller the owner. A service's route and send calls
/// take the packet whatever they return (the rule is stated once, on <see cref="Services.RouteStatus"/>);
/// a transport's <see cref="Transport.ILinkTransport.TrySend"/> takes it only when it returns true. A
/// transport hands received packets to the node; the node lends them to a service for the length
/// of an upcall unless the upcall says it keeps them. The owner ends a packet's life with
/// <see cref="Release"/>, which returns it to its pool.</para>
/// <para>Sharing: a packet sent to several targets (<see cref="Services.INodeContext.Transmit"/>,
/// <see cref="Services.IExtendedRouter.Transmit"/>) is not copied per target. Each target gets a
/// header of its own (<see cref="Share"/>: a packet whose buffer holds only the header, from the
/// pool's <see cref="PacketPool.HeaderPool"/>) that carries the payload of this packet by reference,
/// counted: the payload's buffer returns to its pool when its owner has released it and every header
/// that shares it has been sent or dropped, whichever comes last. While shared, the payload is read
/// only (<see cref="PayloadArea"/> and a new <see cref="PayloadLength"/> throw). A transport copies a
/// shared header and its payload out with <see cref="CopyFrameTo"/>; a node that receives one, or
/// delivers one to a service, first makes it whole with <see cref="Gather"/>.</para>
/// <para>Fields after the header are not on the wire: <see cref="ArrivalLink"/> and the
/// scheduling fields belong to the node that holds the packet.</para>
/// </remarks>
public sealed class Packet
{
    private readonly PacketPool? _pool;
    private int _length;
    private bool _inPool;

    /// <summary>The owner's release happened (the buffer may still wait for shared headers).</summary>
    private bool _released;

    /// <summary>References to this buffer: 1 for its owner, 1 more per header that shares its payload.</summary>
    private int _references = 1;

    /// <summary>For a shared header: the packet whose payload follows this header; otherwise null.</summary>
    private Packet? _shared;

    internal Packet(int capacity, PacketPool? pool)
    {
        Buffer = new byte[capacity];
        _pool = pool;
    }

    /// <summary>Gets the whole buffer; the frame is its first <see cref="Length"/> bytes.</summary>
    public byte[] Buffer { get; }

    /// <summary>Gets the capacity of the buffer: the largest frame this packet can hold.</summary>
    public int Capacity => Buffer.Length;

    /// <summary>Gets or sets the frame length in bytes, header included.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The length is negative or larger than <see cref="Capacity"/>.</exception>
    public int Length
    {
        get => _length;
        set
        {
            if ((uint)value > (uint)FrameCapacity)
            {
                throw new ArgumentOutOfRangeException(nameof(value), value, $"A frame length is from 0 to the buffer capacity, {FrameCapacity} bytes.");
            }

            ThrowIfPayloadShared(value);
            _length = value;
        }
    }

    /// <summary>Gets the frame: header and payload.</summary>
    /// <exception cref="InvalidOperationException">This is a shared header (<see cref="IsSharedHeader"/>): its frame is in two buffers; use <see cref="CopyFrameTo"/> or <see cref="Gather"/>.</exception>
    public Span<byte> Frame => _shared is null
        ? Buffer.AsSpan(0, _length)
        : throw new InvalidOperationException("This packet is a header over a shared payload: its frame is in two buffers (use CopyFrameTo or Gather).");

    /// <summary>Gets the largest payload this packet can carry.</summary>
    public int PayloadCapacity => FrameCapacity - PacketHeader.SizeBytes;

    /// <summary>Gets whether this packet is a header of its own over another packet's shared payload (see <see cref="Share"/>).</summary>
    public bool IsSharedHeader => _shared is not null;

    private int FrameCapacity => _shared is null ? Buffer.Length : PacketHeader.SizeBytes + _shared.PayloadCapacity;

    /// <summary>Gets or sets the payload length; setting it sets <see cref="Length"/> and the header's length field.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The payload does not fit the buffer.</exception>
    public int PayloadLength
    {
        get => _length - PacketHeader.SizeBytes;
        set
        {
            if ((uint)value > (uint)PayloadCapacity)
            {
                throw new ArgumentOutOfRangeException(nameof(value), value, $"A payload is from 0 to {PayloadCapacity} bytes in this packet.");
            }

            ThrowIfPayloadShared(PacketHeader.SizeBytes + value);
            _length = PacketHeader.SizeBytes + value;
            BinaryPrimitives.WriteUInt16BigEndian(Buffer.AsSpan(PacketHeader.PayloadLengthOffset), (ushort)value);
        }
    }

    /// <summary>Gets the payload: the frame after the header (for a shared header, the shared payload: read it, never write it).</summary>
    public Span<byte> Payload => (_shared?.Buffer ?? Buffer).AsSpan(PacketHeader.SizeBytes, Math.Max(0, _length - PacketHeader.SizeBytes));

    /// <summary>Gets the writable payload area: the whole buffer after the header.</summary>
    /// <exception cref="InvalidOperationException">The payload is shared with headers still in flight (see <see cref="Share"/>), so it is read only.</exception>
    public Span<byte> PayloadArea
    {
        get
        {
            ThrowIfPayloadShared(-1);
            return Buffer.AsSpan(PacketHeader.SizeBytes);
        }
    }

    /// <summary>Gets or sets the service id, the first two bytes of every frame.</summary>
    public ushort ServiceId
    {
        get => BinaryPrimitives.ReadUInt16BigEndian(Buffer);
        set => BinaryPrimitives.WriteUInt16BigEndian(Buffer, value);
    }

    /// <summary>Gets or sets what the destination names.</summary>
    public DestinationKind DestinationKind
    {
        get => (DestinationKind)Buffer[PacketHeader.KindOffset];
        set => Buffer[PacketHeader.KindOffset] = (byte)value;
    }

    /// <summary>Gets or sets the hops the packet may still take.</summary>
    public byte HopLimit
    {
        get => Buffer[PacketHeader.HopLimitOffset];
        set => Buffer[PacketHeader.HopLimitOffset] = value;
    }

    /// <summary>Gets or sets the hops the packet has taken.</summary>
    public byte HopCount
    {
        get => Buffer[PacketHeader.HopCountOffset];
        set => Buffer[PacketHeader.HopCountOffset] = value;
    }

    /// <summary>Gets or sets the server that sent the packet.</summary>
    public Coordinate Source
    {
        get => ReadCoordinate(PacketHeader.SourceOffset);
        set => WriteCoordinate(PacketHeader.SourceOffset, value);
    }

    /// <summary>Gets or sets the destination as a key coordinate (for a server destination, w is 0).</summary>
    public KeyCoordinate Destination
    {
        // x, y, z and w are four big-endian 16-bit fields in a row: one 64-bit read or write, read
        // and written at every hop.
        get => KeyCoordinate.Read(Buffer.AsSpan(PacketHeader.DestinationOffset, KeyCoordinate.WireSizeBytes));
        set => value.Write(Buffer.AsSpan(PacketHeader.DestinationOffset, KeyCoordinate.WireSizeBytes));
    }

    /// <summary>Gets or sets the destination server (the home of <see cref="Destination"/>).</summary>
    public Coordinate DestinationServer
    {
        get => ReadCoordinate(PacketHeader.DestinationOffset);
        set => Destination = KeyCoordinate.At(value, 0);
    }

    /// <summary>Gets or sets the link the packet arrived on at this node, or null if it was made here. Not on the wire.</summary>
    public LinkDirection? ArrivalLink { get; set; }

    /// <summary>Gets or sets when the packet was queued at this node, in <see cref="TimeProvider"/> timestamp ticks. Not on the wire.</summary>
    public long QueuedTimestamp { get; set; }

    /// <summary>Gets or sets the set of links (bit i for link direction i) this packet may leave on. Not on the wire.</summary>
    public byte EligibleLinks { get; set; }

    /// <summary>Gets or sets state the current holder attaches to the packet while it holds it (a queue's bookkeeping). Not on the wire; cleared on release.</summary>
    public object? Attachment { get; set; }

    /// <summary>Gets or sets a number the holder of a queue uses to recognise stale queue entries. Not on the wire.</summary>
    public long QueueTicket { get; set; }

    /// <summary>
    /// Writes a fresh v1 header: service id, kind, hop limit, zero hop count, source, destination
    /// and an empty payload.
    /// </summary>
    public void WriteHeader(ushort serviceId, DestinationKind kind, byte hopLimit, Coordinate source, KeyCoordinate destination)
    {
        WriteRoutingFields(serviceId, kind, hopLimit, source, destination);
        PayloadLength = 0;
    }

    /// <summary>
    /// Writes the routing fields of a v1 header (service id, version, kind, hop limit, zero hop
    /// count, source, destination) and keeps the payload already in place.
    /// </summary>
    public void StampHeader(ushort serviceId, DestinationKind kind, byte hopLimit, Coordinate source, KeyCoordinate destination)
    {
        var payloadLength = Math.Max(0, _length - PacketHeader.SizeBytes);
        WriteRoutingFields(serviceId, kind, hopLimit, source, destination);
        _length = PacketHeader.SizeBytes + payloadLength;
        BinaryPrimitives.WriteUInt16BigEndian(Buffer.AsSpan(PacketHeader.PayloadLengthOffset), (ushort)payloadLength);
    }

    /// <summary>
    /// Makes a header of its own for one more target of this packet's payload, which it shares
    /// instead of copying (a multi-target send): the header is a copy of this packet's header, its
    /// payload is this packet's, counted as one more reference. The caller owns the header; the
    /// payload's buffer returns to its pool after this packet's release and every header's, in any order.
    /// </summary>
    /// <returns>A packet whose <see cref="IsSharedHeader"/> is true, rented from <see cref="PacketPool.HeaderPool"/>.</returns>
    /// <exception cref="InvalidOperationException">The packet was released.</exception>
    public Packet Share()
    {
        if (_released || _inPool)
        {
            throw new InvalidOperationException("A released packet cannot be shared.");
        }

        var owner = _shared ?? this;
        Interlocked.Increment(ref owner._references);
        var header = owner._pool is { } pool ? pool.HeaderPool.Rent() : new Packet(PacketHeader.SizeBytes, null);
        Buffer.AsSpan(0, PacketHeader.SizeBytes).CopyTo(header.Buffer);
        header._shared = owner;
        var payloadLength = Math.Max(0, _length - PacketHeader.SizeBytes);
        header._length = PacketHeader.SizeBytes + payloadLength;
        BinaryPrimitives.WriteUInt16BigEndian(header.Buffer.AsSpan(PacketHeader.PayloadLengthOffset), (ushort)payloadLength);
        return header;
    }

    /// <summary>
    /// Copies the frame (header, then payload, from wherever each is held) into <paramref name="destination"/>:
    /// how a transport puts a shared header and its payload on the wire in one copy.
    /// </summary>
    /// <returns>The frame's length in bytes.</returns>
    /// <exception cref="ArgumentException"><paramref name="destination"/> is shorter than the frame.</exception>
    public int CopyFrameTo(Span<byte> destination)
    {
        if (destination.Length < _length)
        {
            throw new ArgumentException($"The destination holds {destination.Length} bytes; the frame is {_length}.", nameof(destination));
        }

        if (_shared is null)
        {
            Buffer.AsSpan(0, _length).CopyTo(destination);
            return _length;
        }

        Buffer.AsSpan(0, PacketHeader.SizeBytes).CopyTo(destination);
        Payload.CopyTo(destination[PacketHeader.SizeBytes..]);
        return _length;
    }

    /// <summary>
    /// Returns this packet with its whole frame in one buffer of its own: this packet itself unless it is
    /// a shared header; a shared header is copied into a packet rented from <paramref name="pool"/>
    /// (with its arrival link) and released. A node does this before it lends a packet to a service.
    /// </summary>
    /// <param name="pool">Where a whole packet is rented from.</param>
    /// <returns>A packet the caller owns in place of this one.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="pool"/> is null.</exception>
    public Packet Gather(PacketPool pool)
    {
        ArgumentNullException.ThrowIfNull(pool);
        if (_shared is null)
        {
            return this;
        }

        var whole = pool.Rent();
        CopyTo(whole);
        whole.ArrivalLink = ArrivalLink;
        Release();
        return whole;
    }

    /// <summary>Copies this packet's frame into <paramref name="destination"/> (a packet of the same or larger capacity).</summary>
    /// <exception cref="ArgumentException">The destination's buffer is too small.</exception>
    public void CopyTo(Packet destination)
    {
        ArgumentNullException.ThrowIfNull(destination);
        if (destination.Capacity < _length || destination._shared is not null)
        {
            throw new ArgumentException($"The destination holds {destination.Capacity} bytes (or is a shared header); the frame is {_length}.", nameof(destination));
        }

        destination.ThrowIfPayloadShared(-1);
        CopyFrameTo(destination.Buffer);
        destination._length = _length;
    }

    /// <summary>
    /// Ends the owner's use of the packet: it returns to its pool, at once unless headers still share
    /// its payload (then after the last of them). A shared header also gives up its reference to the
    /// payload. Only the owner calls this, once.
    /// </summary>
    /// <exception cref="InvalidOperationException">The packet was released already (released twice).</exception>
    public void Release()
    {
        if (_inPool || _released)
        {
            throw new InvalidOperationException("This packet was released twice; only its single owner may release it, once.");
        }

        _released = true;
        if (_shared is { } shared)
        {
            _shared = null;
            shared.ReleaseReference();
        }

        ReleaseReference();
    }

    internal void MarkRented()
    {
        _inPool = false;
        _released = false;
        _references = 1;
    }

    internal void MarkPooled() => _inPool = true;

    /// <summary>Gives up one reference; the last one returns the buffer to its pool.</summary>
    private void ReleaseReference()
    {
        // A buffer nobody shares has one holder, so no other thread can count it down: no interlocked step.
        if (Volatile.Read(ref _references) != 1 && Interlocked.Decrement(ref _references) != 0)
        {
            return;
        }

        ArrivalLink = null;
        Attachment = null;
        EligibleLinks = 0;
        QueueTicket = 0;
        _length = 0;
        if (_pool is not null)
        {
            _inPool = true;
            _pool.Return(this);
        }
        else
        {
            _released = false;
            _references = 1;
        }
    }

    /// <summary>Throws if the payload is shared and the caller would change it (or its length, unless to <paramref name="newLength"/> equal to today's).</summary>
    private void ThrowIfPayloadShared(int newLength)
    {
        if ((_shared is not null || Volatile.Read(ref _references) > 1) && newLength != _length)
        {
            throw new InvalidOperationException("This packet's payload is shared with headers still in flight: it is read only until the last of them is sent.");
        }
    }

    private void WriteRoutingFields(ushort serviceId, DestinationKind kind, byte hopLimit, Coordinate source, KeyCoordinate destination)
    {
        ServiceId = serviceId;
        Buffer[PacketHeader.VersionOffset] = PacketHeader.Version;
        DestinationKind = kind;
        HopLimit = hopLimit;
        HopCount = 0;
        Source = source;
        Destination = destination;
    }

    private Coordinate ReadCoordinate(int offset) => new(
        BinaryPrimitives.ReadUInt16BigEndian(Buffer.AsSpan(offset)),
        BinaryPrimitives.ReadUInt16BigEndian(Buffer.AsSpan(offset + 2)),
        BinaryPrimitives.ReadUInt16BigEndian(Buffer.AsSpan(offset + 4)));

    private void WriteCoordinate(int offset, Coordinate c)
    {
        BinaryPrimitives.WriteUInt16BigEndian(Buffer.AsSpan(offset), (ushort)c.X);
        BinaryPrimitives.WriteUInt16BigEndian(Buffer.AsSpan(offset + 2), (ushort)c.Y);
        BinaryPrimitives.WriteUInt16BigEndian(Buffer.AsSpan(offset + 4), (ushort)c.Z);
    }
}
