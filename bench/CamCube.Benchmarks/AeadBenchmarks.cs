using System.Buffers.Binary;
using System.Security.Cryptography;
using BenchmarkDotNet.Attributes;

namespace CamCube.Benchmarks;

/// <summary>
/// The two AEADs of System.Security.Cryptography that the UDP transport may use, sealing and
/// opening datagram bodies in place as the transport does: one instance per key, reused, a
/// 12-byte counter nonce, a 16-byte tag. 47 bytes is a ping's body (credit, length prefix, packet
/// header and ping payload), 9,010 a full-size frame's. Run with <c>--filter '*Aead*'</c>.
/// </summary>
[MemoryDiagnoser]
public class AeadBenchmarks
{
    private const int TagBytes = 16;
    private readonly byte[] _nonce = new byte[12];
    private AesGcm _aesGcm = null!;
    private ChaCha20Poly1305 _chaCha = null!;
    private byte[] _body = null!;
    private byte[] _sealedAes = null!;
    private byte[] _sealedChaCha = null!;
    private byte[] _sealedAesWithAssociatedData = null!;
    private byte[] _scratch = null!;
    private readonly byte[] _tagAes = new byte[TagBytes];
    private readonly byte[] _tagChaCha = new byte[TagBytes];
    private readonly byte[] _tagAesWithAssociatedData = new byte[TagBytes];

    // A format that passed the credit and the first length prefix as associated data (tried
    // 2026-11-24 so that a one-frame datagram needs no copy; the extra call cost what the copy saved).
    private readonly byte[] _associatedData = new byte[10];
    private readonly byte[] _tag = new byte[TagBytes];
    private ulong _counter;

    /// <summary>Gets or sets the body's size in bytes.</summary>
    [Params(47, 9_010)]
    public int BodyBytes { get; set; }

    /// <summary>Creates both AEADs with random 32-byte keys and seals one body with each for the open benchmarks.</summary>
    [GlobalSetup]
    public void Setup()
    {
        _aesGcm = new AesGcm(RandomNumberGenerator.GetBytes(32), TagBytes);
        _chaCha = new ChaCha20Poly1305(RandomNumberGenerator.GetBytes(32));
        _body = RandomNumberGenerator.GetBytes(BodyBytes);
        _scratch = new byte[BodyBytes];
        _sealedAes = new byte[BodyBytes];
        _sealedChaCha = new byte[BodyBytes];
        _aesGcm.Encrypt(_nonce, _body, _sealedAes, _tagAes);
        _chaCha.Encrypt(_nonce, _body, _sealedChaCha, _tagChaCha);
        _sealedAesWithAssociatedData = new byte[BodyBytes];
        _aesGcm.Encrypt(_nonce, _body, _sealedAesWithAssociatedData, _tagAesWithAssociatedData, _associatedData);
    }

    /// <summary>Disposes both AEADs.</summary>
    [GlobalCleanup]
    public void Cleanup()
    {
        _aesGcm.Dispose();
        _chaCha.Dispose();
    }

    /// <summary>AES-256-GCM seal with a fresh counter nonce.</summary>
    [Benchmark(Baseline = true)]
    public void SealAesGcm()
    {
        BinaryPrimitives.WriteUInt64BigEndian(_nonce.AsSpan(4), ++_counter);
        _aesGcm.Encrypt(_nonce, _body, _scratch, _tag);
    }

    /// <summary>ChaCha20-Poly1305 seal with a fresh counter nonce.</summary>
    [Benchmark]
    public void SealChaCha20Poly1305()
    {
        BinaryPrimitives.WriteUInt64BigEndian(_nonce.AsSpan(4), ++_counter);
        _chaCha.Encrypt(_nonce, _body, _scratch, _tag);
    }

    /// <summary>AES-256-GCM open (tag checked) of the body sealed in setup.</summary>
    /// <summary>Seals with 10 bytes of associated data besides the body (the tried format with the credit and first length prefix in the clear).</summary>
    [Benchmark]
    public void SealAesGcmWithAssociatedData()
    {
        BinaryPrimitives.WriteUInt64BigEndian(_nonce.AsSpan(4), ++_counter);
        _aesGcm.Encrypt(_nonce, _body, _scratch, _tag, _associatedData);
    }

    /// <summary>Opens with 10 bytes of associated data besides the body (the tried format with the credit and first length prefix in the clear).</summary>
    [Benchmark]
    public void OpenAesGcmWithAssociatedData()
    {
        _nonce.AsSpan().Clear();
        _aesGcm.Decrypt(_nonce, _sealedAesWithAssociatedData, _tagAesWithAssociatedData, _scratch, _associatedData);
    }

    [Benchmark]
    public void OpenAesGcm()
    {
        _nonce.AsSpan().Clear();
        _aesGcm.Decrypt(_nonce, _sealedAes, _tagAes, _scratch);
    }

    /// <summary>ChaCha20-Poly1305 open (tag checked) of the body sealed in setup.</summary>
    [Benchmark]
    public void OpenChaCha20Poly1305()
    {
        _nonce.AsSpan().Clear();
        _chaCha.Decrypt(_nonce, _sealedChaCha, _tagChaCha, _scratch);
    }
}
