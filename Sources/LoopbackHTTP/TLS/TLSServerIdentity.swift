import PushCrypto
/// What a TLS server presents: its certificate chain (leaf first, DER) and the leaf's P-256
/// private key, which signs the handshake (ecdsa_secp256r1_sha256).
///
/// For tests only: ``TestCertificateAuthority`` issues one whose CA a client can trust.
package struct TLSServerIdentity: Sendable, Hashable {
    /// DER certificates, the leaf first, each issued by the next.
    package var certificateChain: [[UInt8]]
    /// The leaf certificate's private key.
    package var privateKey: P256KeyPair
    /// Whether to ask clients for a certificate, and whom to trust: nil (the default) sends
    /// no CertificateRequest and costs the handshake nothing.
    package var clientAuthentication: TLSClientAuthentication?

    /// An identity from a chain (leaf first) and the leaf's key.
    package init(certificateChain: [[UInt8]], privateKey: P256KeyPair) {
        self.certificateChain = certificateChain
        self.privateKey = privateKey
    }

    package static func == (lhs: TLSServerIdentity, rhs: TLSServerIdentity) -> Bool {
        lhs.certificateChain == rhs.certificateChain && lhs.privateKey.privateKey == rhs.privateKey.privateKey
            && lhs.clientAuthentication == rhs.clientAuthentication
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(certificateChain)
    }
}
