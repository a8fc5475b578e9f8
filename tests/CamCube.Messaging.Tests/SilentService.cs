using CamCube.Packets;
using CamCube.Services;

namespace CamCube.Messaging.Tests;

/// <summary>Takes the echo service's id on one node and never answers: requests to it time out.</summary>
public sealed class SilentService() : ServiceBase(EchoService.Id, "silent")
{
    public int Swallowed { get; private set; }

    public override bool OnDeliver(Packet packet)
    {
        Swallowed++;
        return false;
    }
}
