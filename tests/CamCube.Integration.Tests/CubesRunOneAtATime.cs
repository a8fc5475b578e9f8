// Each test class here runs 27 (or more) node processes, and several cubes at once on a 2-core
// machine starve each other's loops: heartbeats come late, links flap and servers turn unreachable
// for a moment, which is a cube under CPU starvation, not the fault a test sets. One cube at a time.
[assembly: Xunit.CollectionBehavior(DisableTestParallelization = true)]
