namespace CamCube.Services.Cache;

/// <summary>Where a request is on its way (symbiotic-routing 7): F reads it to know what to return.</summary>
internal enum RouteStage : byte
{
    /// <summary>At the source: F picks the closest replica.</summary>
    Source = 0,

    /// <summary>On its way to a secondary replica, which answers a hit at once.</summary>
    Secondary = 1,

    /// <summary>On its way to the primary replica, the root.</summary>
    Primary = 2,
}
