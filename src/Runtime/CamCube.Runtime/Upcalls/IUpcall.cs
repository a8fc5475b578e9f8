namespace CamCube.Runtime.Upcalls;

/// <summary>
/// One upcall into a service, as a struct: <see cref="Node"/>'s one guarded call is specialised per
/// upcall and calls it directly (no delegate, no allocation), with the same try/catch, counter and log for all.
/// </summary>
/// <typeparam name="TResult">What the upcall returns.</typeparam>
internal interface IUpcall<TResult>
{
    /// <summary>Gets the upcall's name, for the log line of a service that threw.</summary>
    string Name { get; }

    /// <summary>Calls the service of <paramref name="slot"/>.</summary>
    TResult Invoke(ServiceSlot slot);
}
