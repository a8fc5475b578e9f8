using System.Buffers.Binary;
using System.Security.Cryptography;

namespace CamCube.UdpDrivers;

/// <summary>
/// The transport's cryptography without the runtime, for the ping driver's third path: each
/// datagram's first 12 bytes are its AES-GCM nonce (a counter; no associated data), its last 16
/// the tag, as in the UDP transport's datagrams; the echo opens what it gets and seals its answer.
/// </summary>
internal sealed class SealedPingPong : IDisposable
{
    private const int HeaderBytes = 12;
    private const int TagBytes = 16;
    private readonly AesGcm _aead;
    private ulong _counter;

    /// <summary>Keys the AEAD with the run's cluster key; the echo counts its nonces from the top bit so the two sides never share one.</summary>
    public SealedPingPong(bool echo)
    {
        var hex = Environment.GetEnvironmentVariable(Transport.Udp.ClusterKey.DefaultEnvironmentVariable)
            ?? throw new InvalidOperationException("the sealed echo reads the run's key from the environment");
        _aead = new AesGcm(Convert.FromHexString(hex), TagBytes);
        _counter = echo ? 1UL << 63 : 1;
    }

    /// <summary>Writes the next counter into the header and encrypts the body in place, appending the tag.</summary>
    public void Seal(Span<byte> datagram)
    {
        var header = datagram[..HeaderBytes];
        BinaryPrimitives.WriteUInt64BigEndian(header[4..], _counter++);
        var body = datagram[HeaderBytes..^TagBytes];
        _aead.Encrypt(header, body, body, datagram[^TagBytes..]);
    }

    /// <summary>Checks the tag and decrypts the body in place; false if the datagram is not authentic.</summary>
    public bool TryOpen(Span<byte> datagram)
    {
        if (datagram.Length < HeaderBytes + TagBytes)
        {
            return false;
        }

        var header = datagram[..HeaderBytes];
        var body = datagram[HeaderBytes..^TagBytes];
        try
        {
            _aead.Decrypt(header, body, datagram[^TagBytes..], body);
            return true;
        }
        catch (AuthenticationTagMismatchException)
        {
            return false;
        }
    }

    public void Dispose() => _aead.Dispose();
}
