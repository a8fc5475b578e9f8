namespace CamCube.Services.Cache;

/// <summary>A server the root answered a copy to, and until when (the root's clock) that copy may answer reads.</summary>
/// <param name="Server">The secondary holding the copy.</param>
/// <param name="LeaseEnd">A timestamp of the root's clock after which the copy is dead at its holder.</param>
internal readonly record struct CopyHolder(Coordinate Server, long LeaseEnd);
