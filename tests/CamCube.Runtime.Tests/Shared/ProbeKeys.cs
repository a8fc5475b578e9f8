namespace CamCube.Runtime.Tests.Shared;

/// <summary>Keys chosen for where they live, for the probe's cases on every transport.</summary>
internal static class ProbeKeys
{
    /// <summary>Gets the first key <c>key-0</c>, <c>key-1</c>, ... whose root in a whole <paramref name="shape"/> is <paramref name="root"/>.</summary>
    public static Key WithRootAt(TorusShape shape, Coordinate root) => WithServers(shape, root);

    /// <summary>Gets the first key whose first <paramref name="servers"/>.Length walk entries in a whole <paramref name="shape"/> are <paramref name="servers"/>, in order.</summary>
    public static Key WithServers(TorusShape shape, params Coordinate[] servers)
    {
        var keySpace = KeySpace.For(shape);
        for (var i = 0; ; i++)
        {
            var key = Key.FromString("key-" + i);
            if (keySpace.GetServersForKey(key, servers.Length).AsSpan().SequenceEqual(servers))
            {
                return key;
            }
        }
    }
}
