using CamCube.Services;
using Microsoft.Extensions.Logging;

namespace CamCube.Runtime;

/// <summary>
/// Logs drops without flooding the log: the first drop of each reason at once, then at most one
/// line per reason per second, saying how many were not logged in between.
/// </summary>
internal sealed class DropLog(ILogger logger, TimeProvider timeProvider)
{
    private readonly long[] _lastLoggedTimestamp = new long[Enum.GetValues<DropReason>().Length];
    private readonly long[] _suppressed = new long[Enum.GetValues<DropReason>().Length];
    private readonly bool[] _everLogged = new bool[Enum.GetValues<DropReason>().Length];

    public void Dropped(Coordinate self, DropReason reason, string detail)
    {
        if (!logger.IsEnabled(LogLevel.Warning))
        {
            return;
        }

        var now = timeProvider.GetTimestamp();
        var i = (int)reason;
        if (_everLogged[i] && timeProvider.GetElapsedTime(_lastLoggedTimestamp[i], now) < TimeSpan.FromSeconds(1))
        {
            _suppressed[i]++;
            return;
        }

        Log.PacketDropped(logger, self, reason, detail, _suppressed[i]);
        _everLogged[i] = true;
        _lastLoggedTimestamp[i] = now;
        _suppressed[i] = 0;
    }
}
