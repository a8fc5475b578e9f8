using System.Text;

namespace CamCube.Services.Cache.Tests;

/// <summary>Putting a value back together from its fragments, when fragments come twice or do not belong.</summary>
public class FragmentAssemblerTests
{
    private static byte[] Fragment(int valueLength, int offset, string chunk)
    {
        var key = "k1"u8;
        var bytes = Encoding.ASCII.GetBytes(chunk);
        var p = new byte[CacheMessage.FixedBytes + key.Length + bytes.Length];
        CacheMessage.Write(p, CacheMessageType.Request, RouteStage.Primary, 0, 42, new Coordinate(1, 0, 0), KeyCoordinate.At(new Coordinate(0, 0, 0), 1), (byte)CacheOperation.Set, key);
        CacheMessage.SetValue(p, valueLength, offset);
        bytes.CopyTo(p, CacheMessage.FixedBytes + key.Length);
        return p;
    }

    [Fact]
    public void ValueIsWholeWhenAFragmentArrivesTwice()
    {
        var assembler = new FragmentAssembler(1024);

        Assert.Null(assembler.Add(Fragment(6, 0, "abc"), now: 0));
        Assert.Null(assembler.Add(Fragment(6, 0, "abc"), now: 0));
        var value = assembler.Add(Fragment(6, 3, "def"), now: 0);

        Assert.Equal("abcdef", Encoding.ASCII.GetString(value!));
        Assert.Equal(0, assembler.BytesHeld);
    }

    [Fact]
    public void FragmentIsDroppedWhenItNamesAnotherLengthThanTheValueUnderWay()
    {
        // Found by the fuzzer (tests/CamCube.Fuzz/corpus/cache/found-fragment-of-another-length): it threw.
        var assembler = new FragmentAssembler(1024);
        Assert.Null(assembler.Add(Fragment(6, 0, "abc"), now: 0));

        Assert.Null(assembler.Add(Fragment(100, 50, "def"), now: 0));

        Assert.Equal(1, assembler.Dropped);
        Assert.Equal("abcxyz", Encoding.ASCII.GetString(assembler.Add(Fragment(6, 3, "xyz"), now: 0)!));
    }
}
