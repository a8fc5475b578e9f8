using CamCube.Hosting;
using Microsoft.Extensions.Hosting;
using ReplicatedCounter;

// A node program: the settings (CamCube:Shape, CamCube:Coordinate, ...) come from the command line,
// the environment or appsettings.json; `camcube cube up --node ReplicatedCounter.dll` runs 27 of these,
// and `counter increment <name> [by]` or `counter read <name>` on any node's control socket uses them.
var builder = Host.CreateApplicationBuilder(args);
builder.Services.AddCamCubeNode(node => node
    .AddService<CounterService>()
    .AddControlCommand("counter", CounterCommand.AnswerAsync)
    .UseUdpTransport());
using var host = builder.Build();
return await host.RunCamCubeNodeAsync(args);
