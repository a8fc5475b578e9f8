using CamCube.Fuzz.Targets;

namespace CamCube.Fuzz;

/// <summary>Every fuzz target, and the allocation budget each run is held to.</summary>
public static class FuzzTargets
{
    /// <summary>Bytes any input may cause to be allocated, whatever its length: a fresh cube and its pools.</summary>
    public const long AllocatedBytesBase = 256L * 1024 * 1024;

    /// <summary>Bytes more per input byte: a stored value is copied a few times, a reply repeats a value per key asked.</summary>
    public const long AllocatedBytesPerInputByte = 512;

    /// <summary>The longest input read; afl-fuzz writes at most 1 MB by default.</summary>
    public const int InputBytesMax = 1024 * 1024;

    /// <summary>Gets every target, in the order the script runs them.</summary>
    public static IReadOnlyList<IFuzzTarget> All { get; } =
    [
        new MemcachedTextTarget(),
        new UdpDatagramTarget(),
        new PacketHeaderTarget(),
        new CacheMessageTarget(),
        new ReliablePacketTarget(),
        new KeyValueMessageTarget(),
        new ControlRequestTarget(),
        new NodeSettingsTarget(),
        new ClusterKeyFileTarget(),
        new CubeOptionsTarget(),
    ];

    /// <summary>Finds a target by name; null if there is none.</summary>
    public static IFuzzTarget? Find(string name) => All.FirstOrDefault(t => t.Name == name);

    /// <summary>Runs one input through <paramref name="target"/> and fails if it allocated past the budget.</summary>
    /// <exception cref="FuzzFindingException">The run allocated more than <see cref="AllocatedBytesBase"/> plus <see cref="AllocatedBytesPerInputByte"/> per input byte.</exception>
    public static void RunChecked(IFuzzTarget target, byte[] input)
    {
        ArgumentNullException.ThrowIfNull(target);
        ArgumentNullException.ThrowIfNull(input);
        var before = GC.GetTotalAllocatedBytes(precise: false);
        target.Run(input);
        var allocated = GC.GetTotalAllocatedBytes(precise: false) - before;
        var budget = AllocatedBytesBase + (AllocatedBytesPerInputByte * input.Length);
        if (allocated > budget)
        {
            throw new FuzzFindingException($"{target.Name}: an input of {input.Length} bytes allocated {allocated:N0} bytes, past the budget of {budget:N0}.");
        }
    }

    /// <summary>Reads an input from <paramref name="stream"/>, at most <see cref="InputBytesMax"/> bytes.</summary>
    public static byte[] ReadInput(Stream stream)
    {
        ArgumentNullException.ThrowIfNull(stream);
        var buffer = new byte[InputBytesMax];
        var filled = 0;
        int read;
        while (filled < buffer.Length && (read = stream.Read(buffer, filled, buffer.Length - filled)) > 0)
        {
            filled += read;
        }

        return buffer.AsSpan(0, filled).ToArray();
    }
}
