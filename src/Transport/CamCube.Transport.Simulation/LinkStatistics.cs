namespace CamCube.Transport.Simulation;

/// <summary>Counters of one end of a simulated link.</summary>
/// <param name="FramesTransmitted">Frames that finished serializing on this end.</param>
/// <param name="BytesTransmitted">Bytes of those frames, without the per-frame overhead.</param>
/// <param name="FramesDelivered">Frames that arrived at this end and were handed to its node.</param>
/// <param name="IsUp">Whether the link is up as this end sees it.</param>
public readonly record struct LinkStatistics(long FramesTransmitted, long BytesTransmitted, long FramesDelivered, bool IsUp);
