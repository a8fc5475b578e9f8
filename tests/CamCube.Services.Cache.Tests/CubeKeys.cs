using System.Text;

namespace CamCube.Services.Cache.Tests;

/// <summary>Keys chosen for where the cube roots them, for tests that need a key's root to be a given server or distance away.</summary>
internal static class CubeKeys
{
    /// <summary>Gets the server that roots <paramref name="key"/> in a healthy cube of <paramref name="shape"/>.</summary>
    public static Coordinate RootOf(TorusShape shape, string key) =>
        KeySpace.For(shape).GetServersForKey(CacheKeys.MemId(Encoding.ASCII.GetBytes(key)), 1)[0];

    /// <summary>Gets the first key <c>prefix + n</c> rooted <paramref name="distance"/> hops from <paramref name="from"/>, skipping the first <paramref name="skip"/> such keys.</summary>
    public static string RootedAtDistance(TorusShape shape, Coordinate from, int distance, string prefix, int skip = 0)
    {
        for (var i = 0; ; i++)
        {
            var key = prefix + i.ToString(System.Globalization.CultureInfo.InvariantCulture);
            if (shape.Distance(RootOf(shape, key), from) == distance && skip-- == 0)
            {
                return key;
            }
        }
    }
}
