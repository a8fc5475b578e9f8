using System.Text;
using CamCube.Services.KeyValue.Messages;
using ProtoBuf;
using ProtoBuf.Meta;

namespace CamCube.Services.KeyValue.Tests;

/// <summary>
/// docs/keyvalue.proto is the .proto protobuf-net generates for the store's message contracts, so
/// clients in other languages can speak them; it fails when a contract changes without the file.
/// </summary>
public sealed class KeyValueProtoTests
{
    /// <summary>Set to 1 to write the generated file instead of comparing with it.</summary>
    private const string RegenerateVariable = "CAMCUBE_REGENERATE_PROTO";

    [Fact]
    public void TheKeptProtoIsWhatProtobufNetGeneratesWhenTheContractsAreUnchanged()
    {
        var path = Path.Combine(RepositoryRoot(), "docs", "keyvalue.proto");
        var generated = Generate();
        if (Environment.GetEnvironmentVariable(RegenerateVariable) == "1")
        {
            File.WriteAllText(path, generated);
        }

        var kept = File.Exists(path) ? File.ReadAllText(path).ReplaceLineEndings("\n") : "";
        Assert.True(
            kept == generated,
            $"docs/keyvalue.proto differs from the store's message contracts (CamCube.Services.KeyValue.Messages). If the change is meant, regenerate it with "
            + $"{RegenerateVariable}=1 dotnet test tests/CamCube.Services.KeyValue.Tests -c Release --filter FullyQualifiedName~KeyValueProtoTests, and say so in the commit: other languages' clients follow it.");
    }

    [Fact]
    public void EveryContractOfTheMessagesNamespaceIsInTheProto()
    {
        var proto = Generate();

        foreach (var type in Contracts())
        {
            Assert.Contains($"message {type.Name} {{", proto, StringComparison.Ordinal);
        }
    }

    /// <summary>The header that says how the messages travel, then protobuf-net's schema (proto3) of every contract.</summary>
    private static string Generate()
    {
        var options = new SchemaGenerationOptions { Syntax = ProtoSyntax.Proto3, Package = "camcube.keyvalue" };
        options.Types.AddRange(Contracts());
        var header = new StringBuilder()
            .AppendLine("// The replicated key-value store's messages (camcubeos 5.2), as protobuf-net generates them from")
            .AppendLine("// CamCube.Services.KeyValue.Messages. Do not edit: KeyValueProtoTests fails when this file and the")
            .AppendLine("// contracts differ, and says how to regenerate it.")
            .AppendLine("//")
            .AppendLine($"// Each message travels in CamCube.Messaging's envelope (docs/wire-format.md) to service 0x{KeyValueService.Id:X4}:")
            .AppendLine($"//   request type {KeyValueMessageType.ClientRequest}: ClientRequest, answered by ClientReply (a client's get, put or delete, at the key's root)")
            .AppendLine($"//   request type {KeyValueMessageType.Prepare}: Prepare, answered by Promise (a new primary's ballot)")
            .AppendLine($"//   request type {KeyValueMessageType.Accept}: Accept, answered by Accepted (a write to a replica)")
            .AppendLine($"//   request type {KeyValueMessageType.Offer}: Offer, answered by Want (catch-up: the versions a server holds)")
            .AppendLine($"//   request type {KeyValueMessageType.Transfer}: Transfer, answered by TransferAck (catch-up: the values asked for)")
            .AppendLine($"//   request type {KeyValueMessageType.AcceptBatch}: AcceptBatch, answered by AcceptedBatch (several writes to one replica, in one message)")
            .AppendLine($"//   request type {KeyValueMessageType.Purge}: Purge, answered by Purged (a tombstone every replica holds, past its lifetime)")
            .AppendLine($"//   request type {KeyValueMessageType.DropLease}: DropLease, answered by LeaseDropped (a write begins: a front-end stops reading from its lease)")
            .AppendLine($"//   request type {KeyValueMessageType.RenewLeases}: RenewLeases, answered by LeasesRenewed (a primary renews its read leases at a replica in bulk)")
            .AppendLine("// A key is the 20 bytes of its 160-bit id; the memcached front-ends' keys are the SHA-1 of the key's bytes.")
            .AppendLine();
        return (header + RuntimeTypeModel.Default.GetSchema(options)).ReplaceLineEndings("\n");
    }

    /// <summary>The message contracts, in name order so the file does not depend on reflection's order.</summary>
    private static Type[] Contracts() =>
        [.. typeof(ClientRequest).Assembly.GetTypes()
            .Where(t => t.Namespace == typeof(ClientRequest).Namespace && t.IsDefined(typeof(ProtoContractAttribute), inherit: false) && t.IsClass)
            .OrderBy(t => t.Name, StringComparer.Ordinal)];

    private static string RepositoryRoot()
    {
        var directory = new DirectoryInfo(AppContext.BaseDirectory);
        while (directory is not null && !File.Exists(Path.Combine(directory.FullName, "CamCube.sln")))
        {
            directory = directory.Parent;
        }

        return directory?.FullName ?? throw new InvalidOperationException("CamCube.sln not found above the test's directory.");
    }
}
