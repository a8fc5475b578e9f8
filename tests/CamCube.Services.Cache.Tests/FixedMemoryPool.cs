using System.Buffers;

namespace CamCube.Services.Cache.Tests;

/// <summary>
/// A memory pool whose blocks are all made when it is created: renting never allocates, and an
/// exhausted pool throws instead of growing, so an allocation measurement cannot count pool growth
/// (unlike the shared array pool, which a collection may trim). Thread-safe: a front-end may answer
/// from another thread while the client reads.
/// </summary>
internal sealed class FixedMemoryPool : MemoryPool<byte>
{
    private readonly Stack<Block> _free;
    private readonly int _blockBytes;
    private readonly Lock _gate = new();

    public FixedMemoryPool(int blockCount, int blockBytes)
    {
        _blockBytes = blockBytes;
        _free = new Stack<Block>(blockCount);
        for (var i = 0; i < blockCount; i++)
        {
            _free.Push(new Block(this, new byte[blockBytes]));
        }
    }

    public override int MaxBufferSize => _blockBytes;

    public override IMemoryOwner<byte> Rent(int minBufferSize = -1)
    {
        lock (_gate)
        {
            if (minBufferSize > _blockBytes || !_free.TryPop(out var block))
            {
                throw new InvalidOperationException($"The fixed pool has no free block of {minBufferSize} bytes.");
            }

            return block;
        }
    }

    protected override void Dispose(bool disposing)
    {
    }

    private sealed class Block(FixedMemoryPool pool, byte[] bytes) : IMemoryOwner<byte>
    {
        public Memory<byte> Memory => bytes;

        public void Dispose()
        {
            lock (pool._gate)
            {
                pool._free.Push(this);
            }
        }
    }
}
