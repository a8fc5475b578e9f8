using System.Net;
using CamCube.Memcached;
using CamCube.Services.Cache.FrontEnd;
using CamCube.Testing;
using Microsoft.Extensions.Logging.Abstractions;

namespace CamCube.Services.Cache.Tests;

/// <summary>A real-time 3x3x3 in-memory cube with memcached front-ends on (0,0,0) and (2,2,2), on loopback ports the OS picks.</summary>
public sealed class FrontEndCubeFixture : IAsyncLifetime
{
    private RealTimeCube? _cube;

    public MemcachedFrontEnd First { get; private set; } = null!;

    public MemcachedFrontEnd Second { get; private set; } = null!;

    public async Task InitializeAsync()
    {
        _cube = await RealTimeCube.StartAsync(new TorusShape(3, 3, 3), n => n.Register(new CacheService()), TimeSpan.FromSeconds(30));
        First = await StartFrontEndAsync(new Coordinate(0, 0, 0));
        Second = await StartFrontEndAsync(new Coordinate(2, 2, 2));
    }

    /// <summary>Counts the items in every node's store (roots' items and copies), on the cube's loop.</summary>
    public Task<long> StoredItemsAsync() => _cube!.InvokeAsync(() =>
    {
        long count = 0;
        for (long i = 0; i < _cube.Shape.ServerCount; i++)
        {
            var store = _cube[_cube.Shape.CoordinateAt(i)].GetService<CacheService>()!.Store;
            lock (store.Gate)
            {
                count += store.Count;
            }
        }

        return count;
    });

    public async Task DisposeAsync()
    {
        await First.DisposeAsync();
        await Second.DisposeAsync();
        _cube?.Dispose();
    }

    private async Task<MemcachedFrontEnd> StartFrontEndAsync(Coordinate at)
    {
        var service = await _cube!.InvokeAsync(() => _cube[at].GetService<CacheService>()!);
        var frontEnd = new MemcachedFrontEnd(service, new MemcachedFrontEndOptions { EndPoint = new IPEndPoint(IPAddress.Loopback, 0), ConnectionsMax = 64 }, NullLogger.Instance);
        await frontEnd.StartAsync();
        return frontEnd;
    }
}
