namespace CamCube.Transport.Simulation;

/// <summary>
/// What an arrival needs of the server it arrives at, in 16 bytes (four servers a cache line): the
/// node that hears its frames, null unless the server's current transport runs, and when the
/// server last came alive. An arrival reads this one entry instead of the transport table, the
/// transport and the alive-since table, one cache miss instead of three.
/// </summary>
internal struct ServerReceiver
{
    /// <summary>The sink of the server's running transport; null while it is failed, stopped or not started.</summary>
    public ITransportSink? Sink;

    /// <summary>The virtual time the server last came alive (0 for a server alive from the start): frames sent before it are lost.</summary>
    public long AliveSinceNanoseconds;
}
