using CamCube.Packets;

namespace CamCube.Transport;

/// <summary>Something that runs work items on an <see cref="IEventLoop"/>; the code and argument say what to do.</summary>
public interface ILoopWork
{
    /// <summary>Runs one work item on the loop. If <paramref name="packet"/> is not null, this call owns it.</summary>
    void Execute(int code, int argument, Packet? packet);
}
