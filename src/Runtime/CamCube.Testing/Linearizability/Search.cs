namespace CamCube.Testing.Linearizability;

/// <summary>One run of the checker over one history (see <see cref="LinearizabilityChecker"/>).</summary>
internal sealed class Search<TState, TInput, TOutput>
    where TState : notnull
{
    private readonly ISequentialSpecification<TState, TInput, TOutput> _specification;
    private readonly IReadOnlyList<HistoryOperation<TInput, TOutput>> _history;
    private readonly long _statesExploredMax;
    private readonly HistoryEntry _head = new(-1, isCall: false, long.MinValue);
    private readonly HashSet<LinearizedSet<TState>> _explored = [];
    private readonly Stack<Frame> _placed = new();
    private readonly ulong[] _placedBits;
    private HistoryOperation<TInput, TOutput>? _stuck;
    private int _stuckDepth = -1;

    public Search(ISequentialSpecification<TState, TInput, TOutput> specification, IReadOnlyList<HistoryOperation<TInput, TOutput>> history, long statesExploredMax)
    {
        _specification = specification;
        _history = history;
        _statesExploredMax = statesExploredMax;
        _placedBits = new ulong[(history.Count + 63) / 64];
        for (var i = 0; i < history.Count; i++)
        {
            if (history[i].Completed && history[i].ReturnedAt < history[i].InvokedAt)
            {
                throw new ArgumentException($"Operation {i} of client {history[i].ClientId} returns at {history[i].ReturnedAt}, before it was invoked at {history[i].InvokedAt}.", nameof(history));
            }
        }

        BuildList();
    }

    public LinearizabilityResult<TInput, TOutput> Run()
    {
        var state = _specification.Initial;
        var entry = _head.Next;
        var firstAlternative = 0;
        while (entry is not null)
        {
            if (entry.IsCall)
            {
                if (TryPlace(entry, ref state, firstAlternative))
                {
                    if (_explored.Count >= _statesExploredMax)
                    {
                        return Result(LinearizabilityVerdict.Inconclusive);
                    }

                    entry = _head.Next;
                }
                else
                {
                    entry = entry.Next;
                }

                firstAlternative = 0;
            }
            else if (!_history[entry.Operation].Completed)
            {
                // Only the returns of operations whose outcome was never learned are left (they sort
                // last): every completed operation is placed, and these may never have taken effect.
                return Result(LinearizabilityVerdict.Linearizable);
            }
            else
            {
                // A completed operation returned before it could be placed: undo the last placement.
                NoteStuck(entry);
                if (_placed.Count == 0)
                {
                    return Result(LinearizabilityVerdict.NotLinearizable);
                }

                var frame = _placed.Pop();
                state = frame.StateBefore;
                Unmark(frame.Entry.Operation);
                frame.Entry.Unlift();
                entry = frame.Entry;
                firstAlternative = frame.Alternative + 1;
            }
        }

        return Result(LinearizabilityVerdict.Linearizable);
    }

    private bool TryPlace(HistoryEntry call, ref TState state, int firstAlternative)
    {
        var operation = _history[call.Operation];
        var alternative = 0;
        foreach (var next in NextStates(operation, state))
        {
            if (alternative++ < firstAlternative)
            {
                continue;
            }

            Mark(call.Operation);
            if (_explored.Add(new LinearizedSet<TState>((ulong[])_placedBits.Clone(), next)))
            {
                _placed.Push(new Frame(call, state, alternative - 1));
                state = next;
                call.Lift();
                return true;
            }

            Unmark(call.Operation);
        }

        return false;
    }

    private IEnumerable<TState> NextStates(HistoryOperation<TInput, TOutput> operation, TState state)
    {
        if (!operation.Completed)
        {
            return _specification.StepsWithUnknownOutput(state, operation.Input);
        }

        return _specification.TryStep(state, operation.Input, operation.Output, out var next) ? [next] : [];
    }

    private void BuildList()
    {
        var entries = new List<HistoryEntry>(_history.Count * 2);
        for (var i = 0; i < _history.Count; i++)
        {
            var operation = _history[i];
            var returnedAt = operation.Completed ? operation.ReturnedAt : long.MaxValue;
            var call = new HistoryEntry(i, isCall: true, operation.InvokedAt);
            var ret = new HistoryEntry(i, isCall: false, returnedAt) { Match = call };
            call.Match = ret;
            entries.Add(call);
            entries.Add(ret);
        }

        // At equal times calls come first: operations that touch at an instant count as concurrent.
        entries.Sort((a, b) => a.Time != b.Time ? a.Time.CompareTo(b.Time) : b.IsCall.CompareTo(a.IsCall));
        var previous = _head;
        foreach (var entry in entries)
        {
            previous.Next = entry;
            entry.Previous = previous;
            previous = entry;
        }
    }

    private void NoteStuck(HistoryEntry ret)
    {
        if (_placed.Count > _stuckDepth)
        {
            _stuckDepth = _placed.Count;
            _stuck = _history[ret.Operation];
        }
    }

    private LinearizabilityResult<TInput, TOutput> Result(LinearizabilityVerdict verdict)
    {
        var order = verdict == LinearizabilityVerdict.Linearizable
            ? _placed.Reverse().Select(frame => _history[frame.Entry.Operation]).ToList()
            : [];
        return new LinearizabilityResult<TInput, TOutput>(verdict, order, verdict == LinearizabilityVerdict.NotLinearizable ? _stuck : null, _explored.Count);
    }

    private void Mark(int operation) => _placedBits[operation / 64] |= 1UL << (operation % 64);

    private void Unmark(int operation) => _placedBits[operation / 64] &= ~(1UL << (operation % 64));

    private readonly record struct Frame(HistoryEntry Entry, TState StateBefore, int Alternative);
}
