namespace CamCube.Services;

/// <summary>What a service using the extended routing service does with a packet it inspects at a hop.</summary>
public enum HopAction
{
    /// <summary>Hand the packet to the routing service: F if this server is responsible for its destination, else on towards it.</summary>
    Route = 0,

    /// <summary>The service keeps the packet (it owns it now): for example the final destination, or a cache hit.</summary>
    Consumed = 1,

    /// <summary>Drop the packet, counted as dropped by the service.</summary>
    Drop = 2,
}
