namespace CamCube.Testing.Linearizability;

/// <summary>The set of operations placed so far, with the state they lead to: one memo entry of Lowe's cache.</summary>
internal readonly struct LinearizedSet<TState>(ulong[] placed, TState state) : IEquatable<LinearizedSet<TState>>
    where TState : notnull
{
    private readonly ulong[] _placed = placed;
    private readonly TState _state = state;

    public bool Equals(LinearizedSet<TState> other) =>
        _placed.AsSpan().SequenceEqual(other._placed) && EqualityComparer<TState>.Default.Equals(_state, other._state);

    public override bool Equals(object? obj) => obj is LinearizedSet<TState> other && Equals(other);

    public override int GetHashCode()
    {
        var hash = new HashCode();
        foreach (var word in _placed)
        {
            hash.Add(word);
        }

        hash.Add(_state);
        return hash.ToHashCode();
    }

}
