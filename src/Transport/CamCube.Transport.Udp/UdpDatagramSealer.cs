using System.Security.Cryptography;

namespace CamCube.Transport.Udp;

/// <summary>
/// Seals datagrams as one neighbour would for another, for tools that feed a transport's receive
/// path crafted datagrams (the fuzz driver, through <see cref="UdpLinkTransport.HandleDatagram"/>).
/// It takes a <see cref="ClusterKey"/> and never shows the key's bytes or the link keys it derives.
/// </summary>
public sealed class UdpDatagramSealer
{
    /// <summary>The offset of the header byte that names the link the sender sends on.</summary>
    public const int SenderLinkOffset = UdpDatagram.SenderLinkOffset;

    /// <summary>The bytes of an unsealed datagram before its frames: the header and the plaintext credit.</summary>
    public const int UnsealedBytesMin = UdpDatagram.FramesOffset;

    /// <summary>The bytes sealing appends: the authentication tag.</summary>
    public const int TagSizeBytes = UdpDatagram.TagSizeBytes;

    private readonly ClusterKey _key;
    private readonly TorusShape _shape;
    private readonly Coordinate _sender;
    private readonly Coordinate _receiver;

    /// <summary>Creates a sealer for datagrams that <paramref name="sender"/> sends to <paramref name="receiver"/> in a cube of <paramref name="shape"/> keyed with <paramref name="key"/>.</summary>
    /// <param name="key">The cluster key.</param>
    /// <param name="shape">The cube's shape.</param>
    /// <param name="sender">The server that sends.</param>
    /// <param name="receiver">The server that receives.</param>
    public UdpDatagramSealer(ClusterKey key, TorusShape shape, Coordinate sender, Coordinate receiver)
    {
        ArgumentNullException.ThrowIfNull(key);
        _key = key;
        _shape = shape;
        _sender = sender;
        _receiver = receiver;
    }

    /// <summary>
    /// Seals <paramref name="unsealed"/> (header, plaintext credit, plaintext frames) with the key of
    /// <paramref name="senderLink"/>: returns a new datagram, the body encrypted and the tag appended.
    /// The header is sealed as it is, so it may name another link than the key's (a forgery).
    /// </summary>
    /// <param name="unsealed">The header, the credit and the frames, at least <see cref="UnsealedBytesMin"/> bytes.</param>
    /// <param name="senderLink">The link whose key seals the datagram.</param>
    /// <exception cref="ArgumentException"><paramref name="unsealed"/> is shorter than <see cref="UnsealedBytesMin"/>.</exception>
    public byte[] Seal(ReadOnlySpan<byte> unsealed, LinkDirection senderLink)
    {
        if (unsealed.Length < UnsealedBytesMin)
        {
            throw new ArgumentException($"An unsealed datagram has at least {UnsealedBytesMin} bytes (header and credit), not {unsealed.Length}.", nameof(unsealed));
        }

        var datagram = new byte[unsealed.Length + TagSizeBytes];
        unsealed.CopyTo(datagram);
        using var aead = new AesGcm(LinkKeys.Derive(_key.Bytes, _shape, _sender, senderLink, _receiver), TagSizeBytes);
        UdpDatagram.Seal(aead, datagram, unsealed.Length - UnsealedBytesMin);
        return datagram;
    }
}
