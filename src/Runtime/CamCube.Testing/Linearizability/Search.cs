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
    private readonly List<HistoryEntry> _candidates = [];
    private readonly ulong[] _placedBits;

    /// <summary>Per operation, how many ranked operations have a lower rank (all of them placed before it), or -1 when it has no rank.</summary>
    private readonly int[] _rankedBefore;
    private int _rankedPlaced;
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

        _rankedBefore = RankedBefore();
        BuildList();
    }

    public LinearizabilityResult<TInput, TOutput> Run()
    {
        var state = _specification.Initial;
        var next = 0;
        var firstAlternative = 0;
        var atNewPosition = true;
        while (true)
        {
            if (atNewPosition)
            {
                atNewPosition = false;
                switch (PlaceFittingQuery(ref state))
                {
                    case QueryPlacement.Placed:
                        if (_explored.Count >= _statesExploredMax)
                        {
                            return Result(LinearizabilityVerdict.Inconclusive);
                        }

                        atNewPosition = true;
                        continue;
                    case QueryPlacement.SeenBefore:
                        // The query fits here and was placed here before, to no end: nothing else
                        // placed here can do better (ISequentialSpecification.LeavesStateUnchanged).
                        if (!TryBacktrack(ref state, out next, out firstAlternative))
                        {
                            return Result(LinearizabilityVerdict.NotLinearizable);
                        }

                        continue;
                    default:
                        FindCandidates();
                        next = 0;
                        firstAlternative = 0;
                        break;
                }
            }

            if (next < _candidates.Count)
            {
                if (TryPlace(next, ref state, firstAlternative))
                {
                    if (_explored.Count >= _statesExploredMax)
                    {
                        return Result(LinearizabilityVerdict.Inconclusive);
                    }

                    atNewPosition = true;
                }
                else
                {
                    next++;
                }

                firstAlternative = 0;
                continue;
            }

            // Nothing more can be placed here. If only operations whose outcome was never learned are
            // left (their returns sort last), they may never have taken effect: the order is found.
            var firstReturn = FirstReturn();
            if (firstReturn is null || !_history[firstReturn.Operation].Completed)
            {
                return Result(LinearizabilityVerdict.Linearizable);
            }

            // A completed operation returns before it could be placed: undo the last placement.
            NoteStuck(firstReturn);
            if (!TryBacktrack(ref state, out next, out firstAlternative))
            {
                return Result(LinearizabilityVerdict.NotLinearizable);
            }
        }
    }

    /// <summary>
    /// Undoes placements back to the last one that has alternatives left, and gives where its search
    /// goes on; false when none has (no order explains the history). A query placed as soon as it
    /// fitted has none: whatever order starts otherwise at its position, one starting with it does as well.
    /// </summary>
    private bool TryBacktrack(ref TState state, out int next, out int firstAlternative)
    {
        while (_placed.TryPop(out var frame))
        {
            state = frame.StateBefore;
            Unmark(frame.Entry.Operation);
            frame.Entry.Unlift();
            if (!frame.QueryPlacedFirst)
            {
                // The list is as it was at that position, so the candidates come out in the same order.
                FindCandidates();
                next = frame.Candidate;
                firstAlternative = frame.Alternative + 1;
                return true;
            }
        }

        next = 0;
        firstAlternative = 0;
        return false;
    }

    /// <summary>
    /// Lists the operations that may be placed next (the calls before the first return in the list),
    /// those that return soonest first: an operation that returns soon must be placed soon, while
    /// one that runs long (through a failure, say) can wait, so the search rarely tries it early in vain.
    /// </summary>
    private void FindCandidates()
    {
        _candidates.Clear();
        for (var call = _head.Next; call is not null && call.IsCall; call = call.Next)
        {
            _candidates.Add(call);
        }

        _candidates.Sort(static (a, b) => a.Match!.Time != b.Match!.Time ? a.Match.Time.CompareTo(b.Match.Time) : a.Operation.CompareTo(b.Operation));
    }

    private HistoryEntry? FirstReturn()
    {
        var entry = _head.Next;
        while (entry is { IsCall: true })
        {
            entry = entry.Next;
        }

        return entry;
    }

    /// <summary>
    /// Places the first operation that may be placed next, fits the state and leaves it unchanged (a
    /// read of the value held), if there is one: some order explains the rest of the history after
    /// the placements so far exactly when one starting with that operation does.
    /// </summary>
    private QueryPlacement PlaceFittingQuery(ref TState state)
    {
        // Calls before the first return in the list are those that may be placed next.
        for (var call = _head.Next; call is not null && call.IsCall; call = call.Next)
        {
            var operation = _history[call.Operation];
            if (!operation.Completed
                || !_specification.LeavesStateUnchanged(operation.Input, operation.Output)
                || !RankAllows(call.Operation)
                || !_specification.TryStep(state, operation.Input, operation.Output, out var next))
            {
                continue;
            }

            Mark(call.Operation);
            if (!_explored.Add(new LinearizedSet<TState>((ulong[])_placedBits.Clone(), next)))
            {
                Unmark(call.Operation);
                return QueryPlacement.SeenBefore;
            }

            _placed.Push(new Frame(call, state, 0, 0, QueryPlacedFirst: true));
            state = next;
            call.Lift();
            return QueryPlacement.Placed;
        }

        return QueryPlacement.None;
    }

    private bool TryPlace(int candidate, ref TState state, int firstAlternative)
    {
        var call = _candidates[candidate];
        var operation = _history[call.Operation];
        if (!RankAllows(call.Operation))
        {
            return false;
        }

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
                _placed.Push(new Frame(call, state, alternative - 1, candidate, QueryPlacedFirst: false));
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

    /// <summary>A ranked operation may be placed once every ranked operation of a lower rank is (the placed ranked operations are always those of the lowest ranks).</summary>
    private bool RankAllows(int operation) => _rankedBefore[operation] <= _rankedPlaced;

    /// <summary>For each operation, the number of completed operations of a lower rank (<see cref="ISequentialSpecification{TState, TInput, TOutput}.RankOf"/>), or -1 when it has none.</summary>
    private int[] RankedBefore()
    {
        var ranks = _history.Select(op => op.Completed ? _specification.RankOf(op.Input, op.Output) : 0).ToArray();
        var sorted = ranks.Where(rank => rank != 0).Order().ToArray();

        // Where a rank first stands among the sorted ranks is how many are lower.
        var lower = new Dictionary<long, int>();
        for (var i = 0; i < sorted.Length; i++)
        {
            lower.TryAdd(sorted[i], i);
        }

        return [.. ranks.Select(rank => rank == 0 ? -1 : lower[rank])];
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

    /// <summary>Notes <paramref name="operation"/> as placed, counted among the ranked ones when it has a rank.</summary>
    private void Mark(int operation)
    {
        _placedBits[operation / 64] |= 1UL << (operation % 64);
        _rankedPlaced += _rankedBefore[operation] >= 0 ? 1 : 0;
    }

    private void Unmark(int operation)
    {
        _placedBits[operation / 64] &= ~(1UL << (operation % 64));
        _rankedPlaced -= _rankedBefore[operation] >= 0 ? 1 : 0;
    }

    private readonly record struct Frame(HistoryEntry Entry, TState StateBefore, int Alternative, int Candidate, bool QueryPlacedFirst);

    private enum QueryPlacement
    {
        None,
        Placed,
        SeenBefore,
    }
}
