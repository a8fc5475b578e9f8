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
/// <para>Fields after the header are not on the wire: <see cref="ArrivalLink"/> and the
/// scheduling fields belong to the node that holds the packet.</para>
/// </remarks>
public sealed class Packet
{
    private readonly PacketPool? _pool;
    private int _length;
    private bool _inPool;

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
            if ((uint)value > (uint)Buffer.Length)
            {
                throw new ArgumentOutOfRangeException(nameof(value), value, $"A frame length is from 0 to the buffer capacity, {Buffer.Length} bytes.");
            }

            _length = value;
        }
    }

    /// <summary>Gets the frame: header and payload.</summary>
    public Span<byte> Frame => Buffer.AsSpan(0, _length);

    /// <summary>Gets the largest payload this packet can carry.</summary>
    public int PayloadCapacity => Buffer.Length - PacketHeader.SizeBytes;

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

            _length = PacketHeader.SizeBytes + value;
            BinaryPrimitives.WriteUInt16BigEndian(Buffer.AsSpan(PacketHeader.PayloadLengthOffset), (ushort)value);
        }
    }

    /// <summary>Gets the payload: the frame after the header.</summary>
    public Span<byte> Payload => Buffer.AsSpan(PacketHeader.SizeBytes, Math.Max(0, _length - PacketHeader.SizeBytes));

    /// <summary>Gets the writable payload area: the whole buffer after the header.</summary>
    public Span<byte> PayloadArea => Buffer.AsSpan(PacketHeader.SizeBytes);

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
        ServiceId = serviceId;
        Buffer[PacketHeader.VersionOffset] = PacketHeader.Version;
        DestinationKind = kind;
        HopLimit = hopLimit;
        HopCount = 0;
        Source = source;
        Destination = destination;
        PayloadLength = 0;
    }

    /// <summary>
    /// Writes the routing fields of a v1 header (service id, version, kind, hop limit, zero hop
    /// count, source, destination) and keeps the payload already in place.
    /// </summary>
    public void StampHeader(ushort serviceId, DestinationKind kind, byte hopLimit, Coordinate source, KeyCoordinate destination)
    {
        var payloadLength = Math.Max(0, _length - PacketHeader.SizeBytes);
        WriteHeader(serviceId, kind, hopLimit, source, destination);
        PayloadLength = payloadLength;
    }

    /// <summary>Copies this packet's frame into <paramref name="destination"/> (a packet of the same or larger capacity).</summary>
    /// <exception cref="ArgumentException">The destination's buffer is too small.</exception>
    public void CopyTo(Packet destination)
    {
        ArgumentNullException.ThrowIfNull(destination);
        if (destination.Capacity < _length)
        {
            throw new ArgumentException($"The destination holds {destination.Capacity} bytes; the frame is {_length}.", nameof(destination));
        }

        Frame.CopyTo(destination.Buffer);
        destination._length = _length;
    }

    /// <summary>Returns the packet to its pool. Only the owner calls this, once.</summary>
    /// <exception cref="InvalidOperationException">The packet is already in its pool (released twice).</exception>
    public void Release()
    {
        if (_inPool)
        {
            throw new InvalidOperationException("This packet was released twice; only its single owner may release it, once.");
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
    }

    internal void MarkRented() => _inPool = false;

    internal void MarkPooled() => _inPool = true;

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
