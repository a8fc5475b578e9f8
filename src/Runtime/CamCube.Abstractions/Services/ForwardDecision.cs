namespace CamCube.Services;

/// <summary>What a service decides in its forward upcall for a packet passing through.</summary>
public enum ForwardDecision
{
    /// <summary>The runtime forwards the packet towards its destination (the packet may have been modified).</summary>
    Forward = 0,

    /// <summary>The runtime drops the packet and counts it as dropped by the service.</summary>
    Drop = 1,

    /// <summary>The service has taken the packet: it now owns it and the runtime forgets it.</summary>
    Consumed = 2,
}
