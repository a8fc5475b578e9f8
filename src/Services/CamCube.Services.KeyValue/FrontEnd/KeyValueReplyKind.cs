namespace CamCube.Services.KeyValue.FrontEnd;

/// <summary>What a command's answer says, as a memcached reply.</summary>
internal enum KeyValueReplyKind
{
    /// <summary><c>STORED</c>.</summary>
    Stored,

    /// <summary><c>NOT_STORED</c>: add on a present item, replace, append or prepend on an absent one.</summary>
    NotStored,

    /// <summary><c>EXISTS</c>: cas on an item at another version.</summary>
    Exists,

    /// <summary><c>NOT_FOUND</c>.</summary>
    NotFound,

    /// <summary><c>DELETED</c>.</summary>
    Deleted,

    /// <summary><c>TOUCHED</c>.</summary>
    Touched,

    /// <summary><c>OK</c> (flush_all).</summary>
    Ok,

    /// <summary>A number: the new value of incr or decr.</summary>
    Number,

    /// <summary>A get's hit: the item and its version.</summary>
    Value,

    /// <summary>A get's miss: nothing is written.</summary>
    Miss,

    /// <summary>An error line (<see cref="KeyValueReply.ErrorLine"/>).</summary>
    Error,
}
