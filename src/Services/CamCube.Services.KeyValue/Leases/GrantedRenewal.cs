namespace CamCube.Services.KeyValue.Leases;

/// <summary>
/// A run of renewals a replica granted one primary: each renewal that came before the run ended
/// extended it. It renews the leases granted the primary that had not run out when it began (or
/// were granted since); a renewal after it ended begins a new run, with a new id.
/// </summary>
/// <param name="Id">The run's id (random, never 0), told to the primary with each renewal.</param>
/// <param name="Start">When the run began, in <see cref="TimeProvider.GetTimestamp"/> ticks of the replica.</param>
/// <param name="Until">When it ends unless renewed again, in the same ticks.</param>
internal readonly record struct GrantedRenewal(long Id, long Start, long Until);
