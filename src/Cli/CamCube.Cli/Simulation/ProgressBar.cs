namespace CamCube.Cli.Simulation;

/// <summary>A progress bar on a terminal's standard error; silent when the output is not a terminal.</summary>
internal sealed class ProgressBar(TextWriter error, bool enabled) : IProgress<double>, IDisposable
{
    private int _shown = -1;
    private bool _done;

    public void Report(double value)
    {
        if (!enabled || _done)
        {
            return;
        }

        var percent = (int)Math.Clamp(value * 100, 0, 100);
        if (percent == _shown)
        {
            return;
        }

        _shown = percent;
        var filled = percent * 40 / 100;
        error.Write($"\r[{new string('#', filled)}{new string('.', 40 - filled)}] {percent,3}%");
        error.Flush();
    }

    public void Dispose()
    {
        if (enabled && !_done && _shown >= 0)
        {
            error.WriteLine();
        }

        _done = true;
    }
}
