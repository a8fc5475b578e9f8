namespace CamCube.Services.KeyValue.FrontEnd;

/// <summary>How a <see cref="StoreWrite"/> ended.</summary>
internal enum StoreWriteStatus
{
    /// <summary>Not ended yet.</summary>
    None = 0,

    /// <summary>The primary wrote the value.</summary>
    Written = 1,

    /// <summary>It was not written: <see cref="StoreWrite.Reply"/> says why.</summary>
    Failed = 2,
}
