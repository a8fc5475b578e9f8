namespace CamCube.Services.Diagnostics.Tests;

/// <summary>A service that takes the id of another and drops every packet delivered to it: a far end whose replies are lost.</summary>
internal sealed class SilentService(ushort serviceId) : ServiceBase(serviceId, "silent")
{
}
