namespace CamCube.Packets;

/// <summary>
/// A bounded pool of packets of one buffer capacity. Thread-safe by default: a transport's receive
/// thread may rent while the node's event loop returns. A pool made single-threaded (the
/// simulator's, whose whole cube runs on one thread) takes no lock.
/// </summary>
public sealed class PacketPool
{
    /// <summary>The default buffer capacity: a 9,000-byte jumbo frame.</summary>
    public const int DefaultPacketCapacityBytes = 9_000;

    private readonly Lock? _gate;
    private readonly Packet[] _free;
    private readonly bool _singleThreaded;
    private int _freeCount;
    private long _created;
    private long _rented;
    private long _returned;
    private PacketPool? _headerPool;

    /// <summary>Creates a pool.</summary>
    /// <param name="packetCapacityBytes">The capacity of every packet's buffer, header included (at least the header size, at most 65,535).</param>
    /// <param name="pooledPacketsMax">The most packets kept for reuse; more are left to the garbage collector when returned.</param>
    /// <param name="singleThreaded">
    /// True if every rent, return and count happens on one thread (a simulated cube): the pool then
    /// takes no lock. False (the default) for a pool that threads share, as a UDP node's.
    /// </param>
    /// <exception cref="ArgumentOutOfRangeException">A size is out of range.</exception>
    public PacketPool(int packetCapacityBytes = DefaultPacketCapacityBytes, int pooledPacketsMax = 65_536, bool singleThreaded = false)
    {
        if (packetCapacityBytes is < PacketHeader.SizeBytes or > ushort.MaxValue)
        {
            throw new ArgumentOutOfRangeException(nameof(packetCapacityBytes), packetCapacityBytes, $"A packet's capacity is from {PacketHeader.SizeBytes} to {ushort.MaxValue} bytes.");
        }

        ArgumentOutOfRangeException.ThrowIfNegative(pooledPacketsMax);
        PacketCapacityBytes = packetCapacityBytes;
        _free = new Packet[pooledPacketsMax];
        _gate = singleThreaded ? null : new Lock();
        _singleThreaded = singleThreaded;
    }

    /// <summary>The most shared headers a pool keeps for reuse (each a 22-byte buffer).</summary>
    public const int PooledHeadersMax = 8_192;

    /// <summary>Gets the capacity of every packet this pool hands out.</summary>
    public int PacketCapacityBytes { get; }

    /// <summary>Gets how many packets this pool has ever created (a steady state creates none).</summary>
    public long CreatedCount => Volatile.Read(ref _created);

    /// <summary>Gets how many times a packet was rented from this pool.</summary>
    public long RentedCount => Volatile.Read(ref _rented);

    /// <summary>Gets how many times a packet came back to this pool (each rented packet comes back once, after its last release).</summary>
    public long ReturnedCount => Volatile.Read(ref _returned);

    /// <summary>
    /// Gets the pool of headers that share this pool's payloads (<see cref="Packet.Share"/>): packets of
    /// <see cref="PacketHeader.SizeBytes"/> bytes, at most <see cref="PooledHeadersMax"/> kept, made on first use.
    /// </summary>
    public PacketPool HeaderPool
    {
        get
        {
            var headers = Volatile.Read(ref _headerPool);
            if (headers is null)
            {
                var made = new PacketPool(PacketHeader.SizeBytes, Math.Min(PooledHeadersMax, _free.Length), _singleThreaded);
                headers = Interlocked.CompareExchange(ref _headerPool, made, null) ?? made;
            }

            return headers;
        }
    }

    /// <summary>Gets how many packets are waiting in the pool for reuse.</summary>
    public int FreeCount
    {
        get
        {
            if (_gate is null)
            {
                return _freeCount;
            }

            lock (_gate)
            {
                return _freeCount;
            }
        }
    }

    /// <summary>Rents a packet with an empty frame; the caller becomes its owner.</summary>
    public Packet Rent()
    {
        Packet? packet;
        if (_gate is null)
        {
            packet = TakeFree();
        }
        else
        {
            lock (_gate)
            {
                packet = TakeFree();
            }
        }

        if (packet is null)
        {
            Interlocked.Increment(ref _created);
            packet = new Packet(PacketCapacityBytes, this);
        }

        packet.MarkRented();
        return packet;
    }

    /// <summary>
    /// Creates packets until at least <paramref name="count"/> wait in the pool (never more than
    /// it keeps), so that a burst up to that size rents without allocating.
    /// </summary>
    /// <param name="count">How many free packets the pool should hold.</param>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="count"/> is negative.</exception>
    public void Preallocate(int count)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(count);
        if (_gate is null)
        {
            Fill(count);
            return;
        }

        lock (_gate)
        {
            Fill(count);
        }
    }

    internal void Return(Packet packet)
    {
        if (_gate is null)
        {
            PutFree(packet);
            return;
        }

        lock (_gate)
        {
            PutFree(packet);
        }
    }

    private Packet? TakeFree()
    {
        _rented++;
        if (_freeCount == 0)
        {
            return null;
        }

        var packet = _free[--_freeCount];
        _free[_freeCount] = null!;
        return packet;
    }

    private void PutFree(Packet packet)
    {
        _returned++;
        if (_freeCount < _free.Length)
        {
            _free[_freeCount++] = packet;
        }
    }

    private void Fill(int count)
    {
        var target = Math.Min(count, _free.Length);
        while (_freeCount < target)
        {
            Interlocked.Increment(ref _created);
            var packet = new Packet(PacketCapacityBytes, this);
            packet.MarkPooled();
            _free[_freeCount++] = packet;
        }
    }
}
