namespace CamCube.Hosting.Control;

/// <summary>Round-trip times of a series of pings, in microseconds (one decimal).</summary>
/// <param name="Min">The fastest.</param>
/// <param name="Median">The median.</param>
/// <param name="Max">The slowest.</param>
public sealed record RoundTripTimes(double Min, double Median, double Max);
