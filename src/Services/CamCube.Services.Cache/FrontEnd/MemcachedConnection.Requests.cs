namespace CamCube.Services.Cache.FrontEnd;

/// <summary>
/// Commands that go through the node's loop: each takes one of the connection's reusable requests
/// (a get of several keys takes one per key), they are sent together, and once
/// <see cref="ProcessAsync"/> has awaited them all the answers are written in order.
/// </summary>
internal sealed partial class MemcachedConnection
{
    /// <summary>Takes the next reusable request of the current command; the caller prepares it.</summary>
    private ReusableRequest Issue(bool answersAreValues)
    {
        _answersAreValues = answersAreValues;
        return _requests[_issued++] ??= new ReusableRequest(_answerScheduler);
    }

    /// <summary>Hands the issued requests to the service; some may be answered at once (a bad key, too busy).</summary>
    private void SendIssued()
    {
        for (var i = 0; i < _issued; i++)
        {
            _service.Execute(_requests[i]!);
        }
    }

    /// <summary>Writes the answers of the issued requests, all answered by now, and takes the requests back.</summary>
    private void WriteAnswers()
    {
        if (_issued == 0)
        {
            return;
        }

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

    private ReadOnlyMemory<byte> TokenMemory(int index) => _line.AsMemory(_tokens[index]);

    /// <summary>Writes the reply of a status answer; a hit here is incr or decr, which answer with the new value.</summary>
    private void WriteStatus(ReusableRequest answer)
    {
        if (answer.Status != CacheStatus.Hit)
        {
            WriteStatus(answer.Status);
        }
        else if (!_noReply)
        {
            Write(answer.ResponseValue);
            Write("\r\n"u8);
        }
    }
}
