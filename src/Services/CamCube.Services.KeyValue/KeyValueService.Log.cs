using CamCube.Services.KeyValue.Messages;
using Microsoft.Extensions.Logging;

namespace CamCube.Services.KeyValue;

/// <summary>What the store tells its node's log: copies that stopped, and writes whose outcome is not known (at their primary, and at the server they were asked through).</summary>
public sealed partial class KeyValueService
{
    private static partial class Log
    {
        [LoggerMessage(EventId = 1, Level = LogLevel.Information, Message = "Key-value {Reason} to {Target} stopped: {Error}")]
        public static partial void CopyFailed(ILogger logger, CopyReason reason, Coordinate target, string error);

        [LoggerMessage(EventId = 2, Level = LogLevel.Warning, Message = "A write of {Key} at {Primary} may or may not take effect: {Why}")]
        public static partial void WriteUndecided(ILogger logger, Key key, Coordinate primary, string why);

        [LoggerMessage(EventId = 3, Level = LogLevel.Warning, Message = "A {Operation} of {Key} asked through this server may or may not have taken effect: {Why}")]
        public static partial void CallUndecided(ILogger logger, KeyValueOperation operation, Key key, string why);
    }
}
