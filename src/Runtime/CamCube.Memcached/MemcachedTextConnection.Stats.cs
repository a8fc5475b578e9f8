namespace CamCube.Memcached;

/// <summary>The <c>stats</c> command: memcached's general statistics for this node, with the service's own (<see cref="WriteStatistics"/>).</summary>
public abstract partial class MemcachedTextConnection
{
    /// <summary>Writes the service's statistics with <see cref="WriteStat"/>, between the general ones and <c>END</c>.</summary>
    protected abstract void WriteStatistics();

    /// <summary>Writes one statistic: <c>STAT name value</c>.</summary>
    /// <param name="name">The statistic's name, as memcached names it where it has one.</param>
    /// <param name="value">Its value.</param>
    protected void WriteStat(ReadOnlySpan<byte> name, ulong value)
    {
        Write("STAT "u8);
        Write(name);
        Write(" "u8);
        WriteNumber(value);
        Write("\r\n"u8);
    }

    private void WriteStats(int count)
    {
        if (count > 1)
        {
            // Known sub-statistics have nothing to report here; an unknown one (even "noreply") is an error, as in memcached.
            var group = Token(1);
            Write(group.SequenceEqual("reset"u8) ? "RESET\r\n"u8
                : group.SequenceEqual("settings"u8) || group.SequenceEqual("items"u8) || group.SequenceEqual("slabs"u8) || group.SequenceEqual("sizes"u8) || group.SequenceEqual("conns"u8) ? "END\r\n"u8
                : "ERROR\r\n"u8);
            return;
        }

        WriteStat("pid"u8, (ulong)Environment.ProcessId);
        WriteStat("time"u8, (ulong)_options.TimeProvider.GetUtcNow().ToUnixTimeSeconds());
        Write("STAT version "u8);
        Write(System.Text.Encoding.ASCII.GetBytes(_options.Version));
        Write("\r\n"u8);
        WriteStat("pointer_size"u8, 64);
        WriteStatistics();
        WriteStat("max_connections"u8, (ulong)_options.ConnectionsMax);
        Write("END\r\n"u8);
    }
}
