using System.Text;

namespace CamCube.Services.Reliable.Tests;

/// <summary>Putting a value back together from its fragments, when fragments come twice, do not belong, or run over the bound.</summary>
public class FragmentAssemblerTests
{
    private static byte[]? Add(FragmentAssembler<int> assembler, int total, int offset, string chunk, int id = 42, long now = 0) =>
        assembler.Add(id, total, offset, Encoding.ASCII.GetBytes(chunk), now);

    [Fact]
    public void ValueIsWholeWhenAFragmentArrivesTwice()
    {
        var assembler = new FragmentAssembler<int>(1024);

        Assert.Null(Add(assembler, 6, 0, "abc"));
        Assert.Null(Add(assembler, 6, 0, "abc"));
        var value = Add(assembler, 6, 3, "def");

        Assert.Equal("abcdef", Encoding.ASCII.GetString(value!));
        Assert.Equal(0, assembler.BytesHeld);
    }

    [Fact]
    public void FragmentIsDroppedWhenItNamesAnotherLengthThanTheValueUnderWay()
    {
        // Found by the fuzzer (tests/CamCube.Fuzz/corpus/cache/found-fragment-of-another-length): it threw.
        var assembler = new FragmentAssembler<int>(1024);
        Assert.Null(Add(assembler, 6, 0, "abc"));

        Assert.Null(Add(assembler, 100, 50, "def"));

        Assert.Equal(1, assembler.Dropped);
        Assert.Equal("abcxyz", Encoding.ASCII.GetString(Add(assembler, 6, 3, "xyz")!));
    }

    [Fact]
    public void NewValueIsDroppedWhenItWouldHoldMoreThanTheBound()
    {
        var assembler = new FragmentAssembler<int>(10);
        Assert.Null(Add(assembler, 8, 0, "abcd", id: 1));

        Assert.Null(Add(assembler, 8, 0, "efgh", id: 2));

        Assert.Equal(1, assembler.Dropped);
        Assert.Equal(1, assembler.PartialCount);
        Assert.Equal(8, assembler.BytesHeld);
    }

    [Fact]
    public void SweepDropsPartialValuesStartedBeforeTheLimitWhenTheyNeverFinished()
    {
        var assembler = new FragmentAssembler<int>(1024);
        Assert.Null(Add(assembler, 6, 0, "abc", id: 1, now: 10));
        Assert.Null(Add(assembler, 6, 0, "abc", id: 2, now: 20));

        Assert.Equal(1, assembler.Sweep(startedBefore: 15));

        Assert.Equal(1, assembler.PartialCount);
        Assert.Equal(6, assembler.BytesHeld);
        Assert.Null(Add(assembler, 6, 3, "def", id: 1));
        Assert.Equal("abcdef", Encoding.ASCII.GetString(Add(assembler, 6, 3, "def", id: 2)!));
    }

    [Fact]
    public void ValueIsNotWholeWhileAByteIsMissingWhenTheLastFragmentLiesOffTheChunkGrid()
    {
        // A broken sender: the last fragment (it ends at the length) starts at 1, the chunks are 2 bytes.
        // Their bytes add up to the length (5 + 2) while byte 0 never came.
        var assembler = new FragmentAssembler<int>(1024);
        Assert.Null(Add(assembler, 6, 1, "bcdef"));

        Assert.Null(Add(assembler, 6, 2, "cd"));

        Assert.Equal(1, assembler.PartialCount);
    }

    [Fact]
    public void FragmentOutsideTheValueIsDroppedWithoutThrowingWhenItsOffsetIsOnItsOwnGrid()
    {
        // 4 bytes at 4 of a 6-byte value, and 3 bytes at -3: each offset is a multiple of its length.
        var assembler = new FragmentAssembler<int>(1024);

        Assert.Null(Add(assembler, 6, 4, "cdef"));
        Assert.Null(Add(assembler, 6, -3, "xyz"));

        Assert.Null(Add(assembler, 6, 0, "abc"));
        Assert.Equal("abcdef", Encoding.ASCII.GetString(Add(assembler, 6, 3, "def")!));
    }

    [Fact]
    public void FragmentOfAValueOfNegativeLengthIsDroppedWithoutThrowing()
    {
        var assembler = new FragmentAssembler<int>(1024);

        Assert.Null(Add(assembler, -6, 0, "abc"));

        Assert.Equal(1, assembler.Dropped);
        Assert.Equal(0, assembler.PartialCount);
        Assert.Equal(0, assembler.BytesHeld);
    }
}
