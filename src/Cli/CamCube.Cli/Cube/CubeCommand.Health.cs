using CamCube.Hosting.Health;

namespace CamCube.Cli.Cube;

/// <content>`cube health x,y,z`: one node's health checks, as an exit code.</content>
internal static partial class CubeCommand
{
    private static int Health(string[] args, CliConsole console)
    {
        var reader = new ArgumentReader("cube health", args, ["--state-dir"], []);
        if (reader.Positional.Count != 1)
        {
            throw new UsageException("cube health: give one node coordinate, such as 1,1,1.");
        }

        var layout = CubeLayout.Default(reader.Single("--state-dir"));
        var shape = TorusShape.Parse(RequireCube(layout).Shape);
        var target = ArgumentReader.ParseCoordinate("cube health", reader.Positional[0], shape);
        var exit = CamCubeHealthProbe.AskAsync(layout.NodeSocket(target), console.Out).GetAwaiter().GetResult();
        console.Out.Flush();
        return exit;
    }
}
