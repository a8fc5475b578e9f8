using System.Diagnostics;
using System.Globalization;

namespace CamCube.KeyValueVsEtcd;

/// <summary>
/// A 3-member etcd cluster on loopback (Debian's <c>etcd-server</c>): each member with its own
/// data directory under one temporary directory, its own client and peer ports. Started and
/// waited for within a time limit; disposing kills the members and deletes the directory.
/// </summary>
/// <remarks>
/// etcd fsyncs its write-ahead log before it acknowledges a commit (several concurrent
/// requests may share one fsync); etcd 3.4 has no switch to turn that off.
/// </remarks>
internal sealed class EtcdCluster : IAsyncDisposable
{
    /// <summary>The number of members.</summary>
    public const int MemberCount = 3;

    private readonly List<Process> _members = [];
    private readonly string _directory;

    private EtcdCluster(string directory, int clientPortBase)
    {
        _directory = directory;
        ClientUrls = [.. Enumerable.Range(0, MemberCount).Select(i => Url(clientPortBase + i))];
    }

    /// <summary>Gets the members' client URLs (http://127.0.0.1:port).</summary>
    public IReadOnlyList<string> ClientUrls { get; }

    /// <summary>Gets the temporary directory that holds the members' data directories and logs.</summary>
    public string Directory => _directory;

    /// <summary>Gets the process ids of the members that are running.</summary>
    public IReadOnlyList<int> ProcessIds => [.. _members.Where(p => !p.HasExited).Select(p => p.Id)];

    /// <summary>Gets how etcd makes an acknowledged write durable, for the result sheet.</summary>
    public static string Durability =>
        "etcd 3.4: the leader and a majority fsync the raft WAL before a write is acknowledged (concurrent requests share an fsync; no switch turns it off)";

    /// <summary>
    /// Starts the members (client ports <paramref name="clientPortBase"/> + i, peer ports + 10 + i)
    /// and waits until every member reports itself healthy (a leader is elected).
    /// </summary>
    /// <param name="executable">The etcd binary (<c>etcd</c> on the PATH by default).</param>
    /// <param name="clientPortBase">The first member's client port.</param>
    /// <param name="startTimeout">How long to wait for a healthy cluster.</param>
    /// <param name="cancellationToken">Cancels the start.</param>
    /// <returns>The running cluster.</returns>
    /// <exception cref="InvalidOperationException">etcd is not installed, a member exited, or the cluster was not healthy in time.</exception>
    public static async Task<EtcdCluster> StartAsync(string executable, int clientPortBase, TimeSpan startTimeout, CancellationToken cancellationToken = default)
    {
        var directory = System.IO.Directory.CreateTempSubdirectory("camcube-etcd-").FullName;
        var cluster = new EtcdCluster(directory, clientPortBase);
        try
        {
            var token = $"camcube-bench-{Path.GetFileName(directory)}";
            var initialCluster = string.Join(',', Enumerable.Range(0, MemberCount).Select(i => $"m{i}={Url(PeerPort(clientPortBase, i))}"));
            for (var i = 0; i < MemberCount; i++)
            {
                cluster._members.Add(StartMember(executable, directory, i, clientPortBase, initialCluster, token));
            }

            await cluster.WaitHealthyAsync(startTimeout, cancellationToken).ConfigureAwait(false);
            return cluster;
        }
        catch
        {
            await cluster.DisposeAsync().ConfigureAwait(false);
            throw;
        }
    }

    /// <summary>Kills the members (this cluster's processes only), waits for them and deletes the directory.</summary>
    public async ValueTask DisposeAsync()
    {
        foreach (var member in _members)
        {
            try
            {
                if (!member.HasExited)
                {
                    member.Kill(entireProcessTree: false);
                }

                using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(10), TimeProvider.System);
                await member.WaitForExitAsync(timeout.Token).ConfigureAwait(false);
            }
            catch (InvalidOperationException)
            {
                // Never started.
            }
            finally
            {
                member.Dispose();
            }
        }

        _members.Clear();
        try
        {
            System.IO.Directory.Delete(_directory, recursive: true);
        }
        catch (DirectoryNotFoundException)
        {
        }
    }

    private static Process StartMember(string executable, string directory, int index, int clientPortBase, string initialCluster, string token)
    {
        var name = $"m{index}";
        var client = Url(clientPortBase + index);
        var peer = Url(PeerPort(clientPortBase, index));
        var start = new ProcessStartInfo(executable) { UseShellExecute = false };
        string[] arguments =
        [
            "--name", name,
            "--data-dir", Path.Combine(directory, name),
            "--listen-client-urls", client, "--advertise-client-urls", client,
            "--listen-peer-urls", peer, "--initial-advertise-peer-urls", peer,
            "--initial-cluster", initialCluster, "--initial-cluster-state", "new", "--initial-cluster-token", token,
            "--logger", "zap", "--log-outputs", Path.Combine(directory, name + ".log"),
        ];
        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        try
        {
            return Process.Start(start) ?? throw new InvalidOperationException($"could not start {executable}");
        }
        catch (System.ComponentModel.Win32Exception ex)
        {
            throw new InvalidOperationException($"cannot run '{executable}' ({ex.Message}); install Debian's etcd-server (apt-get install etcd-server)", ex);
        }
    }

    private async Task WaitHealthyAsync(TimeSpan timeout, CancellationToken cancellationToken)
    {
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        deadline.CancelAfter(timeout);
        using var http = new HttpClient { Timeout = TimeSpan.FromSeconds(2) };
        var healthy = new bool[MemberCount];
        try
        {
            while (healthy.Contains(false))
            {
                for (var i = 0; i < MemberCount; i++)
                {
                    if (_members[i].HasExited)
                    {
                        throw new InvalidOperationException(
                            $"etcd member m{i} exited with code {_members[i].ExitCode} (log: {Path.Combine(_directory, $"m{i}.log")})");
                    }

                    healthy[i] = healthy[i] || await IsHealthyAsync(http, ClientUrls[i], deadline.Token).ConfigureAwait(false);
                }

                if (healthy.Contains(false))
                {
                    await Task.Delay(TimeSpan.FromMilliseconds(100), TimeProvider.System, deadline.Token).ConfigureAwait(false);
                }
            }
        }
        catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            throw new InvalidOperationException(
                string.Create(CultureInfo.InvariantCulture, $"the etcd cluster was not healthy within {timeout.TotalSeconds:F0} s (logs in {_directory})"));
        }
    }

    private static async Task<bool> IsHealthyAsync(HttpClient http, string clientUrl, CancellationToken cancellationToken)
    {
        try
        {
            var body = await http.GetStringAsync(new Uri(clientUrl + "/health"), cancellationToken).ConfigureAwait(false);
            return body.Contains("\"health\":\"true\"", StringComparison.Ordinal);
        }
        catch (HttpRequestException)
        {
            return false;
        }
        catch (TaskCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            return false;
        }
    }

    private static int PeerPort(int clientPortBase, int index) => clientPortBase + 10 + index;

    private static string Url(int port) => string.Create(CultureInfo.InvariantCulture, $"http://127.0.0.1:{port}");
}
