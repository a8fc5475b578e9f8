using CamCube.Services.KeyValue.Storage;

namespace CamCube.Services.KeyValue.Tests;

/// <summary>Writes for the committers' tests: write <c>i</c> puts the byte <c>i</c> under key <c>k{i}</c>.</summary>
internal static class TestWrites
{
    public static StorageWrite Write(int i) => new(Key.FromString($"k{i}"), new StoredValue(1, [(byte)i]));
}
