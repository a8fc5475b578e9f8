namespace CamCube.UdpDrivers;

/// <summary>A flag one thread sets and busy threads read.</summary>
internal sealed class StopFlag
{
    private int _set;

    public bool IsSet => Volatile.Read(ref _set) != 0;

    public void Set() => Volatile.Write(ref _set, 1);
}
