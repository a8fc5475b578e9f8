using CamCube.Services;

namespace CamCube.Abstractions.Tests;

public sealed class ServiceIdsTests
{
    [Fact]
    public void ThrowIfClashNamesBothServicesWhenTwoShareAnId()
    {
        IService[] services = [new NamedService(0x0042, "who-owns"), new NamedService(0x0007, "other"), new NamedService(0x0042, "counter")];

        var error = Assert.Throws<InvalidOperationException>(() => ServiceIds.ThrowIfClash(services));

        Assert.Equal(
            "Services 'who-owns' (CamCube.Abstractions.Tests.ServiceIdsTests+NamedService) and 'counter' (CamCube.Abstractions.Tests.ServiceIdsTests+NamedService) both have id 0x0042; give one of them another id.",
            error.Message);
    }

    [Fact]
    public void ThrowIfClashAcceptsWhenEveryIdIsDistinct()
    {
        IService[] services = [new NamedService(1, "a"), new NamedService(2, "b"), new NamedService(0xFEFF, "c")];

        ServiceIds.ThrowIfClash(services);
    }

    [Fact]
    public void ThrowIfClashRejectsWhenAnIdIsTheRuntimes()
    {
        IService[] services = [new NamedService(ServiceIds.LinkState, "impostor")];

        var error = Assert.Throws<InvalidOperationException>(() => ServiceIds.ThrowIfClash(services));

        Assert.Equal("Service 'impostor' (CamCube.Abstractions.Tests.ServiceIdsTests+NamedService) has id 0xFF02, which is reserved; use 1 to 0xFEFF.", error.Message);
    }

    /// <summary>A service with any id, even one <see cref="ServiceBase"/> refuses.</summary>
    private sealed class NamedService(ushort serviceId, string name) : IService
    {
        public ushort ServiceId => serviceId;

        public string Name => name;

        public void OnRegistered(INodeContext node)
        {
        }

        public void OnDeregistered()
        {
        }

        public bool OnDeliver(Packets.Packet packet) => false;

        public ForwardDecision OnForward(Packets.Packet packet) => ForwardDecision.Forward;

        public bool OnNeighborFrame(Packets.Packet packet, LinkDirection link) => false;

        public Packets.Packet? Poll(LinkDirection link) => null;

        public void OnLinkChanged(LinkDirection link, bool up)
        {
        }

        public void OnServerReachabilityChanged(Coordinate server, bool reachable)
        {
        }
    }
}
