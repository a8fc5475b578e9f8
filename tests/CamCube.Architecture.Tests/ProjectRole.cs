namespace CamCube.Architecture.Tests;

/// <summary>What a project is for, which decides what it may reference (STYLE.md convention 1).</summary>
internal enum ProjectRole
{
    /// <summary>A project the rules do not know: a new folder needs a role before it builds green.</summary>
    Unknown,

    /// <summary><c>src/Runtime/CamCube.Abstractions</c>: coordinates, keys, packets, the service and transport interfaces.</summary>
    Abstractions,

    /// <summary>A library a service writer uses beside the abstractions and built only on them and on one another (the reliable transport, typed messages).</summary>
    ServiceSdk,

    /// <summary><c>src/Runtime/CamCube.Runtime</c>: the node.</summary>
    Runtime,

    /// <summary><c>src/Transport/*</c>: a transport or a decorator over one.</summary>
    Transport,

    /// <summary><c>src/Services/*</c>: a service.</summary>
    Service,

    /// <summary><c>src/Runtime/CamCube.Testing</c>: the test cubes, which wire nodes to the in-memory and simulated transports.</summary>
    Testing,

    /// <summary><c>src/Hosting/*</c>, <c>src/Cli/*</c> and <c>samples/*</c>: programs that wire a runtime to a transport.</summary>
    Host,

    /// <summary><c>src/Experiments/*</c>: the papers' experiments on the simulator.</summary>
    Experiments,

    /// <summary><c>tests/*</c>.</summary>
    Test,

    /// <summary><c>bench/*</c>: benchmarks and drivers.</summary>
    Benchmark,
}
