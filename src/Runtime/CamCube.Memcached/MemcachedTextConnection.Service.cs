using System.Buffers;

namespace CamCube.Memcached;

/// <summary>What each command does, left to the service: every method is called with its arguments checked, and answers at once with <see cref="Reply"/> or leaves pending answers.</summary>
public abstract partial class MemcachedTextConnection
{
    /// <summary>Runs a storage command (set, add, replace, append, prepend, cas).</summary>
    /// <param name="key">The item's key, valid (<see cref="MemcachedKeys.IsValid"/>); memory over the line buffer.</param>
    /// <param name="command">The command and its arguments.</param>
    /// <param name="value">The data block, without its terminator; it stays in the input buffer until the command's answers are written.</param>
    protected abstract void Store(ReadOnlyMemory<byte> key, in MemcachedStorageCommand command, in ReadOnlySequence<byte> value);

    /// <summary>Called when a storage command's value is over <see cref="ItemSizeMaxBytes"/>, after the error reply; the value is skipped. Does nothing by default.</summary>
    /// <param name="key">The item's key, valid.</param>
    /// <param name="operation">The command.</param>
    protected virtual void OnValueTooLarge(ReadOnlyMemory<byte> key, MemcachedStorageOperation operation)
    {
    }

    /// <summary>Runs <c>delete &lt;key&gt;</c>.</summary>
    /// <param name="key">The item's key, valid.</param>
    protected abstract void Delete(ReadOnlyMemory<byte> key);

    /// <summary>Runs <c>incr</c> or <c>decr</c>.</summary>
    /// <param name="key">The item's key, valid.</param>
    /// <param name="delta">The amount.</param>
    /// <param name="increment">True for incr, false for decr.</param>
    protected abstract void Increment(ReadOnlyMemory<byte> key, ulong delta, bool increment);

    /// <summary>Runs <c>touch &lt;key&gt; &lt;exptime&gt;</c>.</summary>
    /// <param name="key">The item's key, valid.</param>
    /// <param name="expirationSeconds">The new expiry in seconds from now: 0 never, -1 already expired.</param>
    protected abstract void Touch(ReadOnlyMemory<byte> key, int expirationSeconds);

    /// <summary>Runs <c>flush_all [delay]</c>.</summary>
    /// <param name="delaySeconds">Seconds from now until every item present now is invalid; 0 at once.</param>
    protected abstract void FlushAll(int delaySeconds);

    /// <summary>
    /// Answers a batch of a get's keys, tokens <paramref name="first"/> to <paramref name="count"/> - 1
    /// (<see cref="Token"/>, all valid): writes each hit with <see cref="WriteValue"/>, in order, then
    /// <see cref="EndGetBatch"/>, or ends the get with <see cref="StopGet"/>; now or in <see cref="WriteAnswers"/>.
    /// </summary>
    /// <param name="first">The first key's token.</param>
    /// <param name="count">One past the last key's token.</param>
    /// <param name="expirationSeconds">For gat and gats, the new expiry of each key found (as <see cref="Touch"/>); null for get and gets.</param>
    protected abstract void Get(int first, int count, int? expirationSeconds);
}
