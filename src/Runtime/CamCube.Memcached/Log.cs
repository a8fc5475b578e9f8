using System.Net;
using Microsoft.Extensions.Logging;

namespace CamCube.Memcached;

/// <summary>The front-end's log messages.</summary>
internal static partial class Log
{
    [LoggerMessage(EventId = 2001, Level = LogLevel.Information, Message = "memcached front-end listening on {EndPoint}")]
    public static partial void Listening(ILogger logger, IPEndPoint endPoint);

    [LoggerMessage(EventId = 2002, Level = LogLevel.Warning, Message = "memcached front-end could not accept a connection")]
    public static partial void AcceptFailed(ILogger logger, Exception exception);

    [LoggerMessage(EventId = 2003, Level = LogLevel.Debug, Message = "memcached connection ended with an error")]
    public static partial void ConnectionFailed(ILogger logger, Exception exception);
}
