namespace CamCube.Services.KeyValue.FrontEnd;

/// <summary>How a <see cref="StoreRead"/> ended.</summary>
internal enum StoreReadStatus
{
    /// <summary>Not ended yet.</summary>
    None = 0,

    /// <summary>The key holds a value: in <see cref="Services.Reliable.ReusableRequest{TCall, TStatus}.ResponseValue"/>, its version as the response's.</summary>
    Found = 1,

    /// <summary>The key holds no value.</summary>
    Missing = 2,

    /// <summary>The store could not answer: <see cref="StoreRead.Error"/> says why.</summary>
    Failed = 3,
}
