namespace CamCube.Runtime.Posting;

/// <summary>Posted state that must hear when its work will never run (its service left the node): an awaited call faults its task.</summary>
internal interface IAbandonable
{
    /// <summary>The work will not run.</summary>
    void Abandon();
}
