using CamCube.Services;

namespace CamCube.Runtime;

/// <summary>
/// A control service of the runtime (liveness, link state) that makes its packets when polled and
/// can say, without making one, whether a poll of a link would find one: the node polls it only then.
/// </summary>
internal interface IControlService : IService
{
    /// <summary>Gets whether a poll of link <paramref name="d"/> may hand out a packet.</summary>
    bool HasPending(int d);
}
