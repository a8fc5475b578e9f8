using CamCube.Hosting;
using HelloService;
using Microsoft.Extensions.Hosting;

// A node program: the settings (CamCube:Shape, CamCube:Coordinate, ...) come from the command line,
// the environment or appsettings.json; `camcube cube up --node HelloService.dll` runs 27 of these.
var builder = Host.CreateApplicationBuilder(args);
builder.Services.AddCamCubeNode(node => node
    .AddService<WhoOwnsService>()
    .AddControlCommand("who-owns", WhoOwnsCommand.AnswerAsync)
    .UseUdpTransport());
using var host = builder.Build();
return await host.RunCamCubeNodeAsync(args).ConfigureAwait(false);
