namespace CamCube.Runtime.Tests.Shared;

/// <summary>Keys chosen for where they live, for the probe's cases on every transport.</summary>
internal static class ProbeKeys
{
    /// <summary>Gets the first key <c>key-0</c>, <c>key-1</c>, ... whose root in a whole <paramref name="shape"/> is <paramref name="root"/>.</summary>
    public static Key WithRootAt(TorusShape shape, Coordinate root)
    {
        var keySpace = KeySpace.For(shape);
        for (var i = 0; ; i++)
        {
            var key = Key.FromString("key-" + i);
            if (keySpace.GetServersForKey(key, 1)[0] == root)
            {
                return key;
            }
        }
    }
}
