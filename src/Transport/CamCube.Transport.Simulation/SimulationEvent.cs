using CamCube.Packets;

namespace CamCube.Transport.Simulation;

/// <summary>One entry of the engine's event queue: a call of <see cref="ILoopWork.Execute"/> due at a virtual time.</summary>
internal readonly record struct SimulationEvent(ILoopWork Target, int Code, int Argument, Packet? Packet);
