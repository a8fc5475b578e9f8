namespace CamCube.Services.Cache.FrontEnd;

/// <summary>The <c>stats</c> command: memcached's general statistics for this node.</summary>
internal sealed partial class MemcachedConnection
{
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

        var statistics = _service.Statistics;
        WriteStat("pid"u8, (ulong)Environment.ProcessId);
        WriteStat("time"u8, (ulong)_options.TimeProvider.GetUtcNow().ToUnixTimeSeconds());
        Write("STAT version "u8);
        Write(System.Text.Encoding.ASCII.GetBytes(_options.Version));
        Write("\r\n"u8);
        WriteStat("pointer_size"u8, 64);
        WriteStat("cmd_get"u8, (ulong)statistics.GetCommands);
        WriteStat("cmd_set"u8, (ulong)statistics.SetCommands);
        WriteStat("get_hits"u8, (ulong)statistics.GetHits);
        WriteStat("get_misses"u8, (ulong)statistics.GetMisses);
        WriteStat("secondary_hits"u8, (ulong)statistics.SecondaryHits);
        WriteStat("curr_items"u8, (ulong)statistics.CurrentItems);
        WriteStat("bytes"u8, (ulong)statistics.Bytes);
        WriteStat("evictions"u8, (ulong)statistics.Evictions);
        WriteStat("limit_maxbytes"u8, (ulong)_service.Options.MemoryLimitBytes);
        WriteStat("item_size_max"u8, (ulong)_service.Options.ItemSizeMaxBytes);
        WriteStat("max_connections"u8, (ulong)_options.ConnectionsMax);
        Write("END\r\n"u8);
    }

    private void WriteStat(ReadOnlySpan<byte> name, ulong value)
    {
        Write("STAT "u8);
        Write(name);
        Write(" "u8);
        WriteNumber(value);
        Write("\r\n"u8);
    }
}
