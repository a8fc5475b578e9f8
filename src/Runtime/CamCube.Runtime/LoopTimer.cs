using CamCube.Packets;
using CamCube.Transport;

namespace CamCube.Runtime;

/// <summary>A service's timer: the clock's callback posts to the node's loop, where the service's callback runs.</summary>
internal sealed class LoopTimer : ITimer, ILoopWork
{
    private readonly Node _node;
    private readonly ServiceSlot _slot;
    private readonly Action _callback;
    private readonly ITimer _timer;
    private volatile bool _disposed;

    public LoopTimer(Node node, ServiceSlot slot, Action callback, TimeSpan dueTime, TimeSpan period)
    {
        _node = node;
        _slot = slot;
        _callback = callback;
        _timer = node.TimeProvider.CreateTimer(static state => ((LoopTimer)state!).Fire(), this, dueTime, period);
    }

    public bool Change(TimeSpan dueTime, TimeSpan period) => !_disposed && _timer.Change(dueTime, period);

    public void Dispose()
    {
        _disposed = true;
        _timer.Dispose();
    }

    public ValueTask DisposeAsync()
    {
        Dispose();
        return ValueTask.CompletedTask;
    }

    void ILoopWork.Execute(int code, int argument, Packet? packet)
    {
        if (!_disposed && _node.IsRunning)
        {
            _node.RunTimer(_slot, _callback);
        }
    }

    private void Fire()
    {
        if (!_disposed)
        {
            _node.PostWork(this);
        }
    }
}
