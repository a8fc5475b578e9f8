namespace CamCube.Runtime.Upcalls;

/// <summary>A service's timer fired (<see cref="Services.INodeContext.CreateTimer"/>).</summary>
internal readonly struct TimerUpcall(Action callback) : IUpcall<bool>
{
    public string Name => "a timer";

    public bool Invoke(ServiceSlot slot)
    {
        callback();
        return true;
    }
}
