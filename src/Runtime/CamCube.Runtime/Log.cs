using CamCube.Services;
using Microsoft.Extensions.Logging;

namespace CamCube.Runtime;

/// <summary>The runtime's log messages, generated at compile time so logging allocates nothing when disabled.</summary>
internal static partial class Log
{
    [LoggerMessage(1, LogLevel.Information, "Node {Self} started in a {Shape} torus")]
    public static partial void NodeStarted(ILogger logger, Coordinate self, TorusShape shape);

    [LoggerMessage(7, LogLevel.Error, "Node {Self} failed to start its transport")]
    public static partial void NodeStartFailed(ILogger logger, Exception exception, Coordinate self);

    [LoggerMessage(2, LogLevel.Information, "Node {Self} stopped")]
    public static partial void NodeStopped(ILogger logger, Coordinate self);

    [LoggerMessage(3, LogLevel.Warning, "Node {Self} dropped a packet ({Reason}): {Detail} ({Suppressed} similar drops not logged since the last line)")]
    public static partial void PacketDropped(ILogger logger, Coordinate self, DropReason reason, string detail, long suppressed);

    [LoggerMessage(4, LogLevel.Error, "Service {Service} threw in {Upcall} on node {Self}; the packet was dropped")]
    public static partial void ServiceThrew(ILogger logger, Exception exception, string service, string upcall, Coordinate self);

    [LoggerMessage(5, LogLevel.Information, "Node {Self}: link {Link} is {State}")]
    public static partial void LinkChanged(ILogger logger, Coordinate self, string link, string state);

    [LoggerMessage(6, LogLevel.Debug, "Node {Self}: server {Server} is {State}")]
    public static partial void ServerReachability(ILogger logger, Coordinate self, Coordinate server, string state);
}
