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

        /// <summary>Gets or sets the series' one timer, moved on for each ping.</summary>
        public ITimer? Timer { get; set; }

        /// <summary>Gets or sets the sequence number of the ping under way.</summary>
        public uint Sequence { get; set; }

        /// <summary>Gets or sets when the ping under way was sent, in the node's timestamps.</summary>
        public long SentTimestamp { get; set; }

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
