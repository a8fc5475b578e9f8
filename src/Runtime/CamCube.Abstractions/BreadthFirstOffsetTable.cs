namespace CamCube;

/// <summary>
/// The canonical breadth-first walk of camcubeos 3.2 for one axis order, as offsets from the home
/// coordinate on the all-positive facet. Other facets mirror it, so 6 tables serve all 48
/// sequences of a shape, and translation invariance serves every home coordinate.
/// </summary>
/// <remarks>
/// The table grows lazily to the length asked for. Readers never lock: entries below the published
/// count never change, and a grown array is published before the count that covers it.
/// </remarks>
internal sealed class BreadthFirstOffsetTable
{
    private readonly TorusShape _shape;
    private readonly Axis[] _order;
    private readonly long _lengthMax;
    private readonly Lock _gate = new();
    private readonly HashSet<long> _listed = [];
    private Offset[] _entries;
    private int _count;
    private int _expanded;

    public BreadthFirstOffsetTable(TorusShape shape, Axis first, Axis second, Axis third)
    {
        _shape = shape;
        _order = [first, second, third];
        _lengthMax = Math.Min(shape.ServerCount, Array.MaxLength);
        _entries = new Offset[16];
        Append(default);
    }

    /// <summary>Gets the number of entries the walk has in all: every server of the shape.</summary>
    public long LengthMax => _lengthMax;

    /// <summary>Gets entry <paramref name="index"/>, growing the table if needed.</summary>
    public Offset this[int index]
    {
        get
        {
            if (index >= Volatile.Read(ref _count))
            {
                Grow(index + 1);
            }

            return Volatile.Read(ref _entries)[index];
        }
    }

    private void Grow(int length)
    {
        if (length > _lengthMax)
        {
            throw new ArgumentOutOfRangeException(nameof(length), length, $"The walk of {_shape} has {_lengthMax} entries.");
        }

        lock (_gate)
        {
            // Grow in doubling steps so that a long walk costs amortised O(1) per entry.
            var target = (int)Math.Min(Math.Max(length, (long)_count * 2), _lengthMax);
            while (_count < target)
            {
                var parent = _entries[_expanded++];
                foreach (var axis in _order)
                {
                    var child = parent.Step(axis);
                    if (child[axis] < _shape[axis] && _listed.Add(child.Pack()))
                    {
                        Append(child);
                    }
                }
            }
        }
    }

    private void Append(Offset offset)
    {
        if (_count == _entries.Length)
        {
            var grown = new Offset[(int)Math.Min((long)_entries.Length * 2, _lengthMax)];
            Array.Copy(_entries, grown, _count);
            Volatile.Write(ref _entries, grown);
        }

        _entries[_count] = offset;
        Volatile.Write(ref _count, _count + 1);
    }

    /// <summary>A non-negative offset from a home coordinate, one component per axis.</summary>
    internal readonly record struct Offset(int X, int Y, int Z)
    {
        public int this[Axis axis] => axis == Axis.X ? X : axis == Axis.Y ? Y : Z;

        public Offset Step(Axis axis) => axis switch
        {
            Axis.X => this with { X = X + 1 },
            Axis.Y => this with { Y = Y + 1 },
            _ => this with { Z = Z + 1 },
        };

        public long Pack() => ((long)X << 34) | ((long)Y << 17) | (long)Z;
    }
}
