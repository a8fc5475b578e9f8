namespace CamCube.Hosting.Control;

/// <summary>What a node's fault decorator did to its frames.</summary>
/// <param name="Dropped">Frames dropped at random.</param>
/// <param name="Duplicated">Frames sent twice.</param>
/// <param name="Reordered">Frames held back past later ones.</param>
/// <param name="DroppedByCut">Frames lost on a cut link.</param>
public sealed record FaultCounters(long Dropped = 0, long Duplicated = 0, long Reordered = 0, long DroppedByCut = 0);
