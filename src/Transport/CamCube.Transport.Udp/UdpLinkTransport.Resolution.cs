using System.Net;

namespace CamCube.Transport.Udp;

/// <summary>
/// Peers named by host pattern are resolved again when they fall silent: a restarted container
/// or pod may come back at a new address under the same name. The lookup runs off the loop; its
/// answer is applied on the loop, and the receive thread sees the new address at once.
/// </summary>
public sealed partial class UdpLinkTransport
{
    /// <summary>Starts a lookup of <paramref name="link"/>'s neighbour's host name, unless one runs or ran too recently (event loop).</summary>
    private void ResolvePeerAgain(UdpLink link)
    {
        if (_options.Addressing.IsBasePort || link.Resolving || _stopped)
        {
            return;
        }

        var now = _loop.TimeProvider.GetTimestamp();
        if (link.ResolvedTimestamp != 0 && _loop.TimeProvider.GetElapsedTime(link.ResolvedTimestamp, now) < _options.PeerResolveIntervalMin)
        {
            return;
        }

        var neighbor = Shape.Neighbor(Self, link.Direction);
        if (IPAddress.TryParse(_options.Addressing.GetHost(Shape, neighbor), out _))
        {
            return;
        }

        link.Resolving = true;
        link.ResolvedTimestamp = now;
        _ = LookUpAsync(link, neighbor);
    }

    private async Task LookUpAsync(UdpLink link, Coordinate neighbor)
    {
        IPEndPoint? found = null;
        try
        {
            found = await _options.Addressing.ResolveAsync(Shape, neighbor, link.Peer.AddressFamily, _options.HostResolver, CancellationToken.None).ConfigureAwait(false);
        }
#pragma warning disable CA1031 // A failed lookup keeps the old address; the next silence tries again.
        catch (Exception)
#pragma warning restore CA1031
        {
            Interlocked.Increment(ref _peerLookupFailures);
        }

        link.ResolvedPeer = found;
        if (!_stopped)
        {
            _loop.Post(this, CodeResolved, (int)link.Direction, null);
        }
    }

    /// <summary>Points the link at the address the lookup found, if it is new and allowed (event loop).</summary>
    private void ApplyResolvedPeer(UdpLink link)
    {
        link.Resolving = false;
        var found = link.ResolvedPeer;
        link.ResolvedPeer = null;
        if (found is null || found.Equals(link.Peer))
        {
            return;
        }

        if (_options.AllowInsecure && !IPAddress.IsLoopback(found.Address))
        {
            // Without a key only loopback peers are allowed, as at start.
            Interlocked.Increment(ref _peerLookupFailures);
            return;
        }

        link.ChangePeer(found);
    }
}
