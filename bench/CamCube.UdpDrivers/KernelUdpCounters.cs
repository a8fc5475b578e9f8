using System.Globalization;

namespace CamCube.UdpDrivers;

/// <summary>The host's UDP drop counters (Linux <c>/proc/net/snmp</c>), to tell kernel drops from waiting; zero where the file is missing.</summary>
internal readonly record struct KernelUdpCounters(long InErrors, long ReceiveBufferErrors)
{
    public static KernelUdpCounters Read()
    {
        const string path = "/proc/net/snmp";
        if (!File.Exists(path))
        {
            return default;
        }

        string[]? names = null;
        foreach (var line in File.ReadLines(path))
        {
            if (!line.StartsWith("Udp: ", StringComparison.Ordinal))
            {
                continue;
            }

            var fields = line.Split(' ', StringSplitOptions.RemoveEmptyEntries);
            if (names is null)
            {
                names = fields;
                continue;
            }

            return new KernelUdpCounters(Field(names, fields, "InErrors"), Field(names, fields, "RcvbufErrors"));
        }

        return default;
    }

    public static KernelUdpCounters operator -(KernelUdpCounters a, KernelUdpCounters b) =>
        new(a.InErrors - b.InErrors, a.ReceiveBufferErrors - b.ReceiveBufferErrors);

    private static long Field(string[] names, string[] values, string name)
    {
        var i = Array.IndexOf(names, name);
        return i > 0 && i < values.Length ? long.Parse(values[i], CultureInfo.InvariantCulture) : 0;
    }
}
