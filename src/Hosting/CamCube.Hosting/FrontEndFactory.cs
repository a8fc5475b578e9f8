namespace CamCube.Hosting;

/// <summary>
/// Starts a front-end of a node (a memcached server, an HTTP endpoint): called after the node's
/// services started and before its control socket answers, so a node that answers is a node whose
/// front-ends listen. The returned object is disposed when the node stops, before the runtime.
/// </summary>
/// <param name="node">The started node.</param>
/// <param name="cancellationToken">Cancelled when the host gives up starting.</param>
/// <returns>What stops the front-end.</returns>
public delegate ValueTask<IAsyncDisposable> FrontEndFactory(CamCubeNode node, CancellationToken cancellationToken);
