using System.Diagnostics;

namespace CamCube.Samples.Tests;

public sealed class NewSampleProjectTests
{
    [Fact]
    public void BuildsOnItsFirstTryWhenMadeWithDotnetNewUnderSamples()
    {
        // What a newcomer writes first: an undocumented public service, an await without
        // ConfigureAwait, and a package named with a version as its README shows it.
        var root = RepoRoot();
        var directory = Path.Combine(root, "samples", "Fresh" + Guid.NewGuid().ToString("N")[..8]);
        try
        {
            Assert.Equal(0, Dotnet(root, "new", "classlib", "--name", "Fresh", "--output", directory).Exit);
            File.Delete(Path.Combine(directory, "Class1.cs"));
            File.WriteAllText(Path.Combine(directory, "TallyService.cs"), """
                using CamCube;
                using CamCube.Messaging;
                using ProtoBuf;

                namespace Fresh;

                [ProtoContract]
                public sealed class Tally
                {
                    [ProtoMember(1)]
                    public long Count { get; set; }
                }

                public sealed class TallyService : MessagingServiceBase
                {
                    public TallyService()
                        : base(0x0400, "tally")
                    {
                        Handle<Tally, Tally>(1, (tally, _) => new Tally { Count = tally.Count + 1 });
                    }

                    public async Task<long> NextAsync(long count)
                    {
                        var reply = await RequestAsync<Tally, Tally>(Key.FromString("tally"), new Tally { Count = count }, TimeSpan.FromSeconds(1));
                        return reply.Count;
                    }
                }
                """);
            var project = Path.Combine(directory, "Fresh.csproj");
            File.WriteAllText(project, File.ReadAllText(project).Replace("</Project>", $"""
                  <ItemGroup>
                    <ProjectReference Include="{Path.Combine(root, "src", "Runtime", "CamCube.Messaging", "CamCube.Messaging.csproj")}" />
                    <PackageReference Include="protobuf-net" Version="3.4.40" />
                  </ItemGroup>
                </Project>
                """, StringComparison.Ordinal));

            var build = Dotnet(directory, "build", "-c", "Release");

            Assert.True(build.Exit == 0, build.Output);
        }
        finally
        {
            if (Directory.Exists(directory))
            {
                Directory.Delete(directory, recursive: true);
            }
        }
    }

    private static (int Exit, string Output) Dotnet(string workingDirectory, params string[] args)
    {
        var start = new ProcessStartInfo("dotnet")
        {
            WorkingDirectory = workingDirectory,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (var arg in args)
        {
            start.ArgumentList.Add(arg);
        }

        using var process = Process.Start(start)!;
        var output = process.StandardOutput.ReadToEndAsync();
        var error = process.StandardError.ReadToEndAsync();
        if (!process.WaitForExit(TimeSpan.FromMinutes(5)))
        {
            process.Kill(entireProcessTree: true);
            throw new TimeoutException($"dotnet {string.Join(' ', args)} did not finish within 5 minutes.");
        }

        return (process.ExitCode, output.Result + error.Result);
    }

    private static string RepoRoot()
    {
        for (var directory = new DirectoryInfo(AppContext.BaseDirectory); directory is not null; directory = directory.Parent)
        {
            if (File.Exists(Path.Combine(directory.FullName, "CamCube.sln")))
            {
                return directory.FullName;
            }
        }

        throw new InvalidOperationException($"No CamCube.sln above {AppContext.BaseDirectory}.");
    }
}
