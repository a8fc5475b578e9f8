namespace CamCube.Fuzz;

/// <summary>
/// One parser of bytes from outside, driven through its real entry point. <see cref="Run"/> returns
/// when the parser accepted the input or rejected it the documented way (its error reply, its
/// error result or its exception type for bad input); anything else escapes as an exception and is
/// a finding: another exception, a hang (<see cref="FuzzFindingException"/>) or an allocation past
/// the budget (<see cref="FuzzTargets.RunChecked"/>).
/// </summary>
public interface IFuzzTarget
{
    /// <summary>Gets the name given on the command line and used as the corpus folder.</summary>
    string Name { get; }

    /// <summary>Gets what the target feeds the input to, in one line.</summary>
    string Description { get; }

    /// <summary>Feeds one input to the parser.</summary>
    void Run(byte[] input);
}
