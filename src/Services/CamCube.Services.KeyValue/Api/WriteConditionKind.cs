namespace CamCube.Services.KeyValue;

/// <summary>What a <see cref="WriteCondition"/> checks.</summary>
public enum WriteConditionKind
{
    /// <summary>Nothing: the write always happens.</summary>
    Always = 0,

    /// <summary>The key holds no value (never written, or deleted).</summary>
    IfAbsent = 1,

    /// <summary>The key holds a value.</summary>
    IfPresent = 2,

    /// <summary>The key holds a value at exactly the condition's version.</summary>
    IfVersion = 3,
}
