namespace CamCube.Runtime.Tests.Linearizability;

/// <summary>What a register operation does.</summary>
internal enum RegisterOperation
{
    Read,
    Write,
    CompareAndSwap,
}

/// <summary>A register's value (null before the first write).</summary>
internal sealed record RegisterState(int? Value);

/// <summary>A register operation and its arguments.</summary>
internal sealed record RegisterInput(RegisterOperation Kind, int? Value = null, int? Expected = null, string Key = "k");

/// <summary>A register operation's answer: the value read, or whether a compare-and-swap swapped.</summary>
internal sealed record RegisterOutput(int? Value, bool Swapped);
