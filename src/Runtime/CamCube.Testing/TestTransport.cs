namespace CamCube.Testing;

/// <summary>The transport a <see cref="TestCube"/> runs its nodes on.</summary>
public enum TestTransport
{
    /// <summary>An <see cref="InMemoryCube"/>: links with a capacity in frames, no bandwidth or delay.</summary>
    InMemory,

    /// <summary>A <see cref="SimulatedCube"/>: the packet-level simulator, links with bandwidth, propagation and queues.</summary>
    Simulator,
}
