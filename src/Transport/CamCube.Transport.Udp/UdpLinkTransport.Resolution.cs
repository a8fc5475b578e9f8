using System.Net;
using System.Net.Sockets;

namespace CamCube.Transport.Udp;

/// <summary>
/// Peers named by host pattern are resolved again when they fall silent: a restarted container
/// or pod may come back at a new address under the same name. The lookup runs off the loop; its
/// answer is applied on the loop, and the receive thread sees the new address at once.
/// </summary>
public sealed partial class UdpLinkTransport
{
    /// <summary>Resolves a neighbour with the configured resolver when the transport starts (on the loop, like the DNS lookup it replaces).</summary>
    /// <exception cref="SocketException">The name does not resolve to an address of <paramref name="family"/>.</exception>
    private IPEndPoint ResolveWithHostResolver(Coordinate neighbor, AddressFamily family)
    {
        var host = _options.Addressing.GetHost(Shape, neighbor);
        var port = _options.Addressing.GetPort(Shape, neighbor);
        if (IPAddress.TryParse(host, out var literal))
        {
            return new IPEndPoint(literal, port);
        }

        foreach (var address in _options.HostResolver!(host, family, CancellationToken.None).GetAwaiter().GetResult())
        {
            if (address.AddressFamily == family)
            {
                return new IPEndPoint(address, port);
            }
        }

        throw new SocketException((int)SocketError.HostNotFound, $"no {family} address for '{host}'");
    }

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
        var host = _options.Addressing.GetHost(Shape, neighbor);
        if (IPAddress.TryParse(host, out _))
        {
            return;
        }

        link.Resolving = true;
        link.ResolvedTimestamp = now;
        _ = LookUpAsync(link, host, _options.Addressing.GetPort(Shape, neighbor), link.Peer.AddressFamily);
    }

    private async Task LookUpAsync(UdpLink link, string host, int port, AddressFamily family)
    {
        IPEndPoint? found = null;
        try
        {
            var resolver = _options.HostResolver ?? Dns.GetHostAddressesAsync;
            foreach (var address in await resolver(host, family, CancellationToken.None).ConfigureAwait(false))
            {
                if (address.AddressFamily == family)
                {
                    found = new IPEndPoint(address, port);
                    break;
                }
            }
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
