using CamCube.Testing.Linearizability;

namespace CamCube.Runtime.Tests.Linearizability;

public sealed class LinearizabilityCheckerTests
{
    [Fact]
    public void SequentialHistoryIsLinearizableInItsOwnOrder()
    {
        var history = new[]
        {
            Write(0, 1, from: 0, to: 1),
            Read(1, 1, from: 2, to: 3),
            Write(0, 2, from: 4, to: 5),
            Read(1, 2, from: 6, to: 7),
        };
        var result = Check(history);
        Assert.Equal(LinearizabilityVerdict.Linearizable, result.Verdict);
        Assert.Equal(history, result.Order);
    }

    [Fact]
    public void ReadOfAnOverwrittenValueIsNotLinearizableWhenItStartsAfterTheWriteReturned()
    {
        var stale = Read(1, 1, from: 4, to: 5);
        var result = Check([Write(0, 1, from: 0, to: 1), Write(0, 2, from: 2, to: 3), stale]);
        Assert.Equal(LinearizabilityVerdict.NotLinearizable, result.Verdict);
        Assert.Equal(stale, result.Stuck);
    }

    [Fact]
    public void ReadConcurrentWithAWriteMaySeeEitherValue()
    {
        Assert.Equal(LinearizabilityVerdict.Linearizable, Check([Write(0, 1, 0, 1), Write(0, 2, 2, 6), Read(1, 1, 3, 4)]).Verdict);
        Assert.Equal(LinearizabilityVerdict.Linearizable, Check([Write(0, 1, 0, 1), Write(0, 2, 2, 6), Read(1, 2, 3, 4)]).Verdict);
    }

    [Fact]
    public void TwoReadsConcurrentWithAWriteMayNotSeeTheNewValueThenTheOld()
    {
        // Real time orders the reads: once one saw 2, a later read may not see 1 again.
        var history = new[] { Write(0, 1, 0, 1), Write(0, 2, 2, 10), Read(1, 2, 3, 4), Read(2, 1, 5, 6) };
        Assert.Equal(LinearizabilityVerdict.NotLinearizable, Check(history).Verdict);
    }

    [Fact]
    public void WriteWhoseOutcomeWasNeverLearnedMayHaveTakenEffectOrNot()
    {
        var pending = PendingWrite(0, 2, from: 2);
        Assert.Equal(LinearizabilityVerdict.Linearizable, Check([Write(0, 1, 0, 1), pending, Read(1, 1, 5, 6)]).Verdict);
        Assert.Equal(LinearizabilityVerdict.Linearizable, Check([Write(0, 1, 0, 1), pending, Read(1, 1, 5, 6), Read(1, 2, 7, 8)]).Verdict);
        Assert.Equal(LinearizabilityVerdict.NotLinearizable, Check([Write(0, 1, 0, 1), pending, Read(1, 2, 5, 6), Read(1, 1, 7, 8)]).Verdict);
    }

    [Fact]
    public void ValueNobodyWroteIsNotLinearizableEvenWithPendingWrites()
    {
        var pending = PendingWrite(0, 2, from: 2);
        Assert.Equal(LinearizabilityVerdict.NotLinearizable, Check([Write(0, 1, 0, 1), pending, Read(1, 3, 5, 6)]).Verdict);
    }

    [Fact]
    public void TwoConcurrentCompareAndSwapsFromTheSameValueCannotBothSucceed()
    {
        var history = new[] { Write(0, 1, 0, 1), Cas(1, 1, 2, true, 2, 5), Cas(2, 1, 3, true, 3, 6) };
        Assert.Equal(LinearizabilityVerdict.NotLinearizable, Check(history).Verdict);
        history[2] = Cas(2, 1, 3, false, 3, 6);
        Assert.Equal(LinearizabilityVerdict.Linearizable, Check(history).Verdict);
    }

    [Fact]
    public void SearchStopsAsInconclusiveWhenItReachesItsBound()
    {
        var history = Enumerable.Range(0, 12).Select(i => Write(i, i, 0, 100)).Append(Read(20, 99, 101, 102)).ToArray();
        var result = LinearizabilityChecker.Check(RegisterSpecification.Instance, history, statesExploredMax: 50);
        Assert.Equal(LinearizabilityVerdict.Inconclusive, result.Verdict);
        Assert.Equal(50, result.StatesExplored);
    }

    [Fact]
    public void KeysAreCheckedAsIndependentHistoriesWhenCheckedEachKey()
    {
        var history = new[]
        {
            Write(0, 1, 0, 1, key: 1),
            Write(0, 2, 2, 3, key: 2),
            Read(1, 1, 4, 5, key: 1),
            Read(1, 1, 6, 7, key: 2),
        };
        var results = LinearizabilityChecker.CheckEachKey(RegisterSpecification.Instance, history, op => op.Input.Key);
        Assert.Equal(LinearizabilityVerdict.Linearizable, results[1].Verdict);
        Assert.Equal(LinearizabilityVerdict.NotLinearizable, results[2].Verdict);
    }

    [Fact]
    public void OperationReturningBeforeItWasInvokedIsRefused()
    {
        var error = Assert.Throws<ArgumentException>(() => Check([Write(3, 1, 5, 4)]));
        Assert.Contains("Operation 0 of client 3 returns at 4, before it was invoked at 5", error.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    [InlineData(4)]
    [InlineData(5)]
    public void HistoriesOfAnAtomicRegisterAreLinearizableAndCorruptingOneReadIsCaught(int seed)
    {
        // Six clients overlap in time; each operation takes effect at one instant inside its interval.
        var random = new Random(seed);
        for (var round = 0; round < 40; round++)
        {
            var history = AtomicHistory(random, clients: 6, operations: 30, out var lastRead);
            Assert.True(Check(history).Verdict == LinearizabilityVerdict.Linearizable, $"seed {seed} round {round}");
            if (lastRead >= 0)
            {
                // A read returning a value never written anywhere cannot be explained.
                history[lastRead] = history[lastRead] with { Output = new RegisterOutput(-1, Swapped: false) };
                Assert.Equal(LinearizabilityVerdict.NotLinearizable, Check(history).Verdict);
            }
        }
    }

    [Fact]
    public void ReadsThatFitArePlacedAtOnceSoManyConcurrentReadsDoNotMultiplyTheSearch()
    {
        // Sixteen reads of 1 overlap a write of 2; a later read of 3, which nobody wrote, cannot be
        // explained. Without placing the reads as soon as they fit, the search tries every subset of them.
        var history = new List<HistoryOperation<RegisterInput, RegisterOutput>> { Write(0, 1, 0, 1), Write(1, 2, 2, 100) };
        history.AddRange(Enumerable.Range(0, 16).Select(i => Read(2 + i, 1, 2, 100)));
        history.Add(Read(30, 3, 101, 102));

        var result = Check([.. history]);
        var unhelped = LinearizabilityChecker.Check(new RegisterWithoutQueries(), history);

        Assert.Equal(LinearizabilityVerdict.NotLinearizable, result.Verdict);
        Assert.Equal(LinearizabilityVerdict.NotLinearizable, unhelped.Verdict);
        Assert.True(result.StatesExplored < 100, $"{result.StatesExplored} states explored");
        Assert.True(unhelped.StatesExplored > 10_000, $"{unhelped.StatesExplored} states explored without the queries placed first");
    }

    [Theory]
    [InlineData(11)]
    [InlineData(12)]
    [InlineData(13)]
    public void PlacingQueriesFirstGivesTheVerdictOfTheSearchWithoutIt(int seed)
    {
        // Random histories, some linearizable and some not: the shortcut must never change a verdict.
        var random = new Random(seed);
        var verdicts = new int[3];
        for (var round = 0; round < 300; round++)
        {
            var history = RandomHistory(random, clients: 4, operations: 14);
            var result = Check(history);
            var unhelped = LinearizabilityChecker.Check(new RegisterWithoutQueries(), history);
            Assert.True(unhelped.Verdict == result.Verdict, $"seed {seed} round {round}: {result.Verdict} with queries placed first, {unhelped.Verdict} without");
            verdicts[(int)result.Verdict]++;
        }

        Assert.True(verdicts[(int)LinearizabilityVerdict.Linearizable] > 20 && verdicts[(int)LinearizabilityVerdict.NotLinearizable] > 20, $"verdicts {string.Join('/', verdicts)}: the histories did not exercise both");
    }

    /// <summary>An atomic register's history with some answers never learned and, half the time, one answer changed.</summary>
    private static HistoryOperation<RegisterInput, RegisterOutput>[] RandomHistory(Random random, int clients, int operations)
    {
        var history = AtomicHistory(random, clients, operations, out _);
        for (var i = 0; i < history.Length; i++)
        {
            if (random.Next(10) == 0)
            {
                history[i] = history[i] with { Completed = false };
            }
        }

        if (random.Next(2) == 0)
        {
            var changed = random.Next(history.Length);
            var output = history[changed].Output;
            history[changed] = history[changed] with { Output = new RegisterOutput(random.Next(4), !output.Swapped) };
        }

        return history;
    }

    private static HistoryOperation<RegisterInput, RegisterOutput>[] AtomicHistory(Random random, int clients, int operations, out int lastRead)
    {
        var register = RegisterSpecification.Instance.Initial;
        var clientFree = new long[clients];
        var history = new List<HistoryOperation<RegisterInput, RegisterOutput>>();
        lastRead = -1;
        long now = 0;
        for (var i = 0; i < operations; i++)
        {
            var client = random.Next(clients);
            now = Math.Max(now + random.Next(1, 4), clientFree[client]);
            var invokedAt = Math.Max(clientFree[client], now - random.Next(0, 6));
            var returnedAt = now + random.Next(0, 6);
            clientFree[client] = returnedAt + 1;
            var input = random.Next(3) switch
            {
                0 => new RegisterInput(RegisterOperation.Read),
                1 => new RegisterInput(RegisterOperation.Write, random.Next(4)),
                _ => new RegisterInput(RegisterOperation.CompareAndSwap, random.Next(4), Expected: random.Next(4)),
            };
            var next = RegisterSpecification.Instance.StepsWithUnknownOutput(register, input).Single();
            var output = input.Kind switch
            {
                RegisterOperation.Read => new RegisterOutput(register.Value, Swapped: false),
                RegisterOperation.Write => new RegisterOutput(null, Swapped: false),
                _ => new RegisterOutput(null, register.Value == input.Expected),
            };
            register = next;
            if (input.Kind == RegisterOperation.Read)
            {
                lastRead = history.Count;
            }

            history.Add(new HistoryOperation<RegisterInput, RegisterOutput>(client, input, output, invokedAt, returnedAt));
        }

        return [.. history];
    }

    [Fact]
    public void WritesAnsweredWithVersionsArePlacedInVersionOrder()
    {
        // Concurrent writes may go in either order, but not against the versions the store gave them.
        Assert.Equal(LinearizabilityVerdict.Linearizable, Check([Versioned(0, 1, 7, 0, 4), Versioned(1, 2, 8, 1, 5), Read(2, 2, 6, 7)]).Verdict);
        Assert.Equal(LinearizabilityVerdict.NotLinearizable, Check([Versioned(0, 1, 8, 0, 4), Versioned(1, 2, 7, 1, 5), Read(2, 2, 6, 7)]).Verdict);
        Assert.Equal(LinearizabilityVerdict.Linearizable, Check([Versioned(0, 1, 8, 0, 4), Write(1, 2, 1, 5), Read(2, 2, 6, 7)]).Verdict);

        // One after the other, a write may not get a lower version than the one before it.
        Assert.Equal(LinearizabilityVerdict.NotLinearizable, Check([Versioned(0, 1, 8, 0, 1), Versioned(0, 2, 7, 2, 3)]).Verdict);

        // A write whose answer was lost has no version, so no order: it may go anywhere it fits.
        Assert.Equal(LinearizabilityVerdict.Linearizable, Check([Versioned(0, 1, 8, 0, 4), PendingWrite(1, 2, 1), Versioned(2, 3, 9, 1, 5), Read(3, 2, 6, 7)]).Verdict);
    }

    [Fact]
    public void VersionsShortenTheSearchOfManyConcurrentWritesAnsweredTogether()
    {
        // Sixteen sets of one key written in one round: concurrent, answered at once, only the value of the
        // one placed last read: the first one asked, which the store wrote last (the highest version).
        const int writes = 16;
        var unversioned = new List<HistoryOperation<RegisterInput, RegisterOutput>>();
        var versioned = new List<HistoryOperation<RegisterInput, RegisterOutput>>();
        for (var i = 0; i < writes; i++)
        {
            unversioned.Add(Write(i, i + 1, from: i, to: 100));
            versioned.Add(Versioned(i, i + 1, version: i == 0 ? 100 : 10 + i, from: i, to: 100));
        }

        unversioned.Add(Read(writes, 1, 101, 102));
        versioned.Add(Read(writes, 1, 101, 102));

        var withoutVersions = Check([.. unversioned]);
        var withVersions = Check([.. versioned]);

        Assert.Equal(LinearizabilityVerdict.Linearizable, withoutVersions.Verdict);
        Assert.Equal(LinearizabilityVerdict.Linearizable, withVersions.Verdict);
        Assert.Equal(writes + 1, withVersions.StatesExplored);
        Assert.True(withoutVersions.StatesExplored > 100 * withVersions.StatesExplored, $"{withoutVersions.StatesExplored} states without versions, {withVersions.StatesExplored} with them");
    }

    private static LinearizabilityResult<RegisterInput, RegisterOutput> Check(HistoryOperation<RegisterInput, RegisterOutput>[] history) =>
        LinearizabilityChecker.Check(RegisterSpecification.Instance, history);

    private static HistoryOperation<RegisterInput, RegisterOutput> Write(int client, int value, long from, long to, int key = 0) =>
        new(client, new RegisterInput(RegisterOperation.Write, value, Key: key), new RegisterOutput(null, false), from, to);

    private static HistoryOperation<RegisterInput, RegisterOutput> Versioned(int client, int value, long version, long from, long to) =>
        new(client, new RegisterInput(RegisterOperation.Write, value), new RegisterOutput(null, false, version), from, to);

    private static HistoryOperation<RegisterInput, RegisterOutput> PendingWrite(int client, int value, long from) =>
        new(client, new RegisterInput(RegisterOperation.Write, value), new RegisterOutput(null, false), from, ReturnedAt: 0, Completed: false);

    private static HistoryOperation<RegisterInput, RegisterOutput> Read(int client, int? value, long from, long to, int key = 0) =>
        new(client, new RegisterInput(RegisterOperation.Read, Key: key), new RegisterOutput(value, false), from, to);

    private static HistoryOperation<RegisterInput, RegisterOutput> Cas(int client, int expected, int value, bool swapped, long from, long to) =>
        new(client, new RegisterInput(RegisterOperation.CompareAndSwap, value, expected), new RegisterOutput(null, swapped), from, to);

    /// <summary>The register, told nothing of which operations leave it unchanged: the plain search.</summary>
    private sealed class RegisterWithoutQueries : ISequentialSpecification<RegisterState, RegisterInput, RegisterOutput>
    {
        public RegisterState Initial => RegisterSpecification.Instance.Initial;

        public bool TryStep(RegisterState state, RegisterInput input, RegisterOutput output, out RegisterState next) =>
            RegisterSpecification.Instance.TryStep(state, input, output, out next);

        public IEnumerable<RegisterState> StepsWithUnknownOutput(RegisterState state, RegisterInput input) =>
            RegisterSpecification.Instance.StepsWithUnknownOutput(state, input);
    }
}
