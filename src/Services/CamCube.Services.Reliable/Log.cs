using Microsoft.Extensions.Logging;

namespace CamCube.Services.Reliable;

/// <summary>The reliable transport's log messages.</summary>
internal static partial class Log
{
    [LoggerMessage(EventId = 5001, Level = LogLevel.Warning, Message = "Reliable flow {FlowId:X16} from {Source} announced a message of {Length} bytes, over the limit of {Limit}; it is refused")]
    public static partial void MessageOverLimit(ILogger logger, ulong flowId, Coordinate source, int length, int limit);

    [LoggerMessage(EventId = 5002, Level = LogLevel.Error, Message = "The reliable message handler threw for a message from {Source} on flow {FlowId:X16}")]
    public static partial void HandlerFault(ILogger logger, Exception exception, Coordinate source, ulong flowId);

    [LoggerMessage(EventId = 5003, Level = LogLevel.Warning, Message = "Reliable flow {FlowId:X16} from {Source} began a message of {Length} bytes while {Held} bytes are being reassembled, past the limit of {Limit}; the message is refused and the flow dropped")]
    public static partial void ReassemblyFull(ILogger logger, ulong flowId, Coordinate source, int length, long held, long limit);
}
