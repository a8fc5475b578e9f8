using CamCube.Services.KeyValue.Storage;

namespace CamCube.Services.KeyValue.Tests;

public sealed class MemoryKeyValueStorageTests : KeyValueStorageContract
{
    [Fact]
    public void StorageIsNotDurable() => Assert.False(Storage.IsDurable);

    [Fact]
    public void ChangingTheWrittenArrayLaterDoesNotChangeTheStoredValue()
    {
        byte[] value = [1, 2, 3];
        Storage.Apply(Key.FromString("a"), new StoredValue(1, value));
        value[0] = 9;
        Assert.Equal([1, 2, 3], Storage.Read(Key.FromString("a"))!.Value);
    }

    protected override IKeyValueStorage Create() => new MemoryKeyValueStorage();
}
