namespace CamCube.Services.Cache.FrontEnd;

/// <summary>
/// Commands that go through the node's loop: each takes one of the connection's reusable requests
/// (a get of several keys takes one per key), they are sent together, and once the protocol's
/// loop has awaited them all (<see cref="PendingAnswer"/>) the answers are written in order.
/// </summary>
internal sealed partial class MemcachedConnection
{
    /// <summary>Takes the next reusable request of the current command; the caller prepares it.</summary>
    private FrontEndRequest Issue(bool answersAreValues)
    {
        _answersAreValues = answersAreValues;
        return _requests[_issued++] ??= new FrontEndRequest(AnswerScheduler);
    }

    /// <summary>Hands the issued requests to the service; some may be answered at once (a bad key, too busy).</summary>
    private void SendIssued()
    {
        for (var i = 0; i < _issued; i++)
        {
            _service.Execute(_requests[i]!);
        }
    }

    /// <inheritdoc/>
    protected override int PendingCount => _issued;

    /// <inheritdoc/>
    protected override ValueTask PendingAnswer(int index) => _requests[index]!.Answered;

    /// <summary>Writes the answers of the issued requests, all answered by now, and takes the requests back.</summary>
    protected override void WriteAnswers()
    {
        if (_answersAreValues)
        {
            WriteValues();
        }
        else
        {
            WriteStatus(_requests[0]!);
        }

        for (var i = 0; i < _issued; i++)
        {
            _requests[i]!.Recycle();
        }

        _issued = 0;
    }

    /// <summary>Writes the reply of a status answer; a hit here is incr or decr, which answer with the new value.</summary>
    private void WriteStatus(FrontEndRequest answer)
    {
        if (answer.Status != CacheStatus.Hit)
        {
            WriteStatus(answer.Status);
        }
        else if (!NoReply)
        {
            Write(answer.ResponseValue);
            Write("\r\n"u8);
        }
    }

    /// <summary>Writes the answers of a get through the loop, in order, and <c>END</c>; stops at the first failure, whose error it writes.</summary>
    private void WriteValues()
    {
        for (var i = 0; i < _issued; i++)
        {
            var answer = _requests[i]!;
            if (answer.Status == CacheStatus.Hit)
            {
                WriteValue(answer.Call.Key.Span, answer.ResponseValue, answer.ResponseFlags, answer.ResponseVersion);
            }
            else if (answer.Status is not (CacheStatus.Miss or CacheStatus.NotFound))
            {
                StopGet(ErrorLine(answer.Status));
                return;
            }
        }

        EndGetBatch();
    }
}
