using System.Globalization;
using System.Net;
using System.Net.Sockets;

namespace CamCube.Transport.Udp;

/// <summary>
/// Where each server of a cube listens: either one host with consecutive ports
/// (<c>port = basePort + shape.IndexOf(coordinate)</c>), or a host name per server made from a
/// pattern such as <c>cc-{x}-{y}-{z}:7000</c> (one container or machine per server).
/// </summary>
public sealed class UdpPeerAddressing
{
    private readonly IPAddress? _host;
    private readonly int _basePort;
    private readonly string? _hostPattern;
    private readonly int _patternPort;

    private UdpPeerAddressing(IPAddress? host, int basePort, string? hostPattern, int patternPort)
    {
        _host = host;
        _basePort = basePort;
        _hostPattern = hostPattern;
        _patternPort = patternPort;
    }

    /// <summary>Gets whether servers are told apart by port on one host (rather than by host name).</summary>
    public bool IsBasePort => _hostPattern is null;

    /// <summary>
    /// Every server on <paramref name="host"/> (127.0.0.1 if null), server <c>c</c> on port
    /// <c>basePort + shape.IndexOf(c)</c>.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The base port is not from 1 to 65,535.</exception>
    public static UdpPeerAddressing FromBasePort(int basePort, IPAddress? host = null)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(basePort, 1);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(basePort, ushort.MaxValue);
        return new UdpPeerAddressing(host ?? IPAddress.Loopback, basePort, null, 0);
    }

    /// <summary>
    /// Server <c>c</c> at the host name made by replacing <c>{x}</c>, <c>{y}</c>, <c>{z}</c> and
    /// <c>{i}</c> (the dense index) in the pattern's host part, on the pattern's port; for example
    /// <c>cc-{x}-{y}-{z}:7000</c>. Names are resolved with DNS when a transport starts.
    /// </summary>
    /// <exception cref="FormatException">The pattern has no <c>:port</c> suffix, an empty host or a bad port.</exception>
    public static UdpPeerAddressing FromHostPattern(string pattern)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(pattern);
        var colon = pattern.LastIndexOf(':');
        if (colon <= 0 ||
            !int.TryParse(pattern.AsSpan(colon + 1), NumberStyles.None, CultureInfo.InvariantCulture, out var port) ||
            port is < 1 or > ushort.MaxValue)
        {
            throw new FormatException($"'{pattern}' is not a host pattern: expected host:port with a port from 1 to 65535, such as cc-{{x}}-{{y}}-{{z}}:7000.");
        }

        return new UdpPeerAddressing(null, 0, pattern[..colon], port);
    }

    /// <summary>
    /// Parses configuration text: a number is a base port on 127.0.0.1 (<c>7000</c>), an address,
    /// <c>+</c> and a number a base port on that address (<c>10.0.0.5+7000</c>), anything else a
    /// host pattern (<c>cc-{x}-{y}-{z}:7000</c>).
    /// </summary>
    /// <exception cref="FormatException">The text is none of these.</exception>
    public static UdpPeerAddressing Parse(string text)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(text);
        text = text.Trim();
        if (int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var port) && port is >= 1 and <= ushort.MaxValue)
        {
            return FromBasePort(port);
        }

        var plus = text.LastIndexOf('+');
        if (plus > 0 &&
            IPAddress.TryParse(text.AsSpan(0, plus), out var host) &&
            int.TryParse(text.AsSpan(plus + 1), NumberStyles.None, CultureInfo.InvariantCulture, out port) &&
            port is >= 1 and <= ushort.MaxValue)
        {
            return FromBasePort(port, host);
        }

        return FromHostPattern(text);
    }

    /// <summary>Gets the host name (or address text) of <paramref name="coordinate"/>'s server.</summary>
    public string GetHost(TorusShape shape, Coordinate coordinate)
    {
        if (_hostPattern is null)
        {
            return _host!.ToString();
        }

        return _hostPattern
            .Replace("{x}", coordinate.X.ToString(CultureInfo.InvariantCulture), StringComparison.Ordinal)
            .Replace("{y}", coordinate.Y.ToString(CultureInfo.InvariantCulture), StringComparison.Ordinal)
            .Replace("{z}", coordinate.Z.ToString(CultureInfo.InvariantCulture), StringComparison.Ordinal)
            .Replace("{i}", shape.IndexOf(coordinate).ToString(CultureInfo.InvariantCulture), StringComparison.Ordinal);
    }

    /// <summary>Gets the UDP port of <paramref name="coordinate"/>'s server.</summary>
    /// <exception cref="ArgumentOutOfRangeException">The base port plus the index exceeds 65,535.</exception>
    public int GetPort(TorusShape shape, Coordinate coordinate)
    {
        if (_hostPattern is not null)
        {
            return _patternPort;
        }

        var port = _basePort + shape.IndexOf(coordinate);
        if (port > ushort.MaxValue)
        {
            throw new ArgumentOutOfRangeException(nameof(coordinate), coordinate, $"Base port {_basePort} plus the index of {coordinate} in {shape} exceeds port 65535; choose a lower base port.");
        }

        return (int)port;
    }

    /// <summary>
    /// Gets the address to bind for <paramref name="self"/>: its own address in base-port mode,
    /// or every interface of <paramref name="family"/> on the pattern's port in host-pattern mode
    /// (a container does not always know the address its name resolves to).
    /// </summary>
    public IPEndPoint GetBindEndPoint(TorusShape shape, Coordinate self, AddressFamily family = AddressFamily.InterNetwork)
    {
        if (_hostPattern is null)
        {
            return new IPEndPoint(_host!, GetPort(shape, self));
        }

        return new IPEndPoint(family == AddressFamily.InterNetworkV6 ? IPAddress.IPv6Any : IPAddress.Any, _patternPort);
    }

    /// <summary>Resolves the endpoint of <paramref name="coordinate"/>'s server, with DNS (or <paramref name="resolver"/>) for host patterns; blocks while it looks up.</summary>
    /// <param name="shape">The cube's shape.</param>
    /// <param name="coordinate">The server.</param>
    /// <param name="family">The address family of the local socket; a name must resolve to an address of it.</param>
    /// <param name="resolver">Looks host names up instead of DNS, or null for DNS.</param>
    /// <exception cref="SocketException">The name does not resolve.</exception>
    /// <exception cref="InvalidOperationException">The name resolves, but to no address of <paramref name="family"/>.</exception>
    public IPEndPoint Resolve(TorusShape shape, Coordinate coordinate, AddressFamily family = AddressFamily.InterNetwork, Func<string, AddressFamily, CancellationToken, Task<IPAddress[]>>? resolver = null) =>
        ResolveAsync(shape, coordinate, family, resolver, CancellationToken.None).GetAwaiter().GetResult();

    /// <summary>Resolves the endpoint of <paramref name="coordinate"/>'s server, with DNS (or <paramref name="resolver"/>) for host patterns.</summary>
    /// <param name="shape">The cube's shape.</param>
    /// <param name="coordinate">The server.</param>
    /// <param name="family">The address family of the local socket; a name must resolve to an address of it.</param>
    /// <param name="resolver">Looks host names up instead of DNS, or null for DNS.</param>
    /// <param name="cancellationToken">Cancels the lookup.</param>
    /// <exception cref="SocketException">The name does not resolve.</exception>
    /// <exception cref="InvalidOperationException">The name resolves, but to no address of <paramref name="family"/>.</exception>
    public async Task<IPEndPoint> ResolveAsync(TorusShape shape, Coordinate coordinate, AddressFamily family, Func<string, AddressFamily, CancellationToken, Task<IPAddress[]>>? resolver, CancellationToken cancellationToken)
    {
        var port = GetPort(shape, coordinate);
        if (_hostPattern is null)
        {
            return new IPEndPoint(_host!, port);
        }

        var host = GetHost(shape, coordinate);
        if (IPAddress.TryParse(host, out var literal))
        {
            return new IPEndPoint(literal, port);
        }

        var addresses = resolver is null
            ? await Dns.GetHostAddressesAsync(host, family, cancellationToken).ConfigureAwait(false)
            : await resolver(host, family, cancellationToken).ConfigureAwait(false);
        foreach (var address in addresses)
        {
            if (address.AddressFamily == family)
            {
                return new IPEndPoint(address, port);
            }
        }

        throw new InvalidOperationException($"The host name '{host}' of server {coordinate} has no {family} address.");
    }

    /// <summary>Describes the addressing, such as <c>127.0.0.1+7000</c> or <c>cc-{x}-{y}-{z}:7000</c>.</summary>
    public override string ToString() => _hostPattern is null
        ? string.Create(CultureInfo.InvariantCulture, $"{_host}+{_basePort}")
        : string.Create(CultureInfo.InvariantCulture, $"{_hostPattern}:{_patternPort}");
}
