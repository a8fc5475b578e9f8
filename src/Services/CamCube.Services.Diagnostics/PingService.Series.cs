namespace CamCube.Services.Diagnostics;

/// <content>A series of pings, one after another from the node's loop.</content>
public sealed partial class PingService
{
    /// <summary>The replies of a series so far; the task completes when the last one is in (or the service leaves the node).</summary>
    private sealed class Series(Coordinate target, TimeSpan timeout, int count)
    {
        private readonly PingReply[] _replies = new PingReply[count];
        private int _received;

        public Coordinate Target { get; } = target;

        public TimeSpan Timeout { get; } = timeout;

        public TaskCompletionSource<PingReply[]> Completion { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

        /// <summary>Records a ping's outcome; returns whether another ping is due.</summary>
        public bool Add(PingReply reply)
        {
            _replies[_received++] = reply;
            if (_received < _replies.Length)
            {
                return true;
            }

            Completion.TrySetResult(_replies);
            return false;
        }

        /// <summary>Ends the series early: the ping under way and those not sent yet are lost.</summary>
        public void Finish(PingReply lost)
        {
            while (_received < _replies.Length)
            {
                _replies[_received++] = lost;
            }

            Completion.TrySetResult(_replies);
        }
    }
}
