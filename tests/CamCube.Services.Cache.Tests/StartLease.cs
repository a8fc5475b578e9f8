using CamCube.Testing;

namespace CamCube.Services.Cache.Tests;

/// <summary>A root answers no write for a copy lease after it starts (copies an earlier life granted may still answer): cubes on a manual clock run past it before a test writes.</summary>
internal static class StartLease
{
    /// <summary>Runs <paramref name="cube"/> past its roots' first copy lease (<paramref name="lease"/>, or the default) and returns it.</summary>
    public static TCube PastStartLease<TCube>(this TCube cube, TimeSpan? lease = null)
        where TCube : ITestCube
    {
        cube.RunFor(lease ?? new CacheOptions().CopyLease);
        return cube;
    }
}
