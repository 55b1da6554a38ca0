// A P-256 key pair for TLS: ECDH on secp256r1 key shares (RFC 8446 §4.2.8.2) and
// ecdsa_secp256r1_sha256 CertificateVerify signatures, on the arithmetic FakeAPNs's ES256
// keys use.

/// A P-256 private key with its public key.
///
/// ```swift
/// let ours = P256KeyPair.generate()
/// let secret = ours.sharedSecret(peerPublicKeyX963: clientShare)   // nil if not on the curve
/// let signature = ours.signatureDER(for: content)                  // ECDSA-SHA256, DER
/// ```
package struct P256KeyPair: Sendable {
    /// The private scalar d, 1 ≤ d < n.
    package let scalar: U256
    /// d·G.
    package let publicPoint: P256AffinePoint

    /// A fresh key from the system's secure random number generator.
    package static func generate() -> P256KeyPair {
        var generator = SystemRandomNumberGenerator()
        while true {
            let candidate = U256(l0: generator.next(), l1: generator.next(), l2: generator.next(), l3: generator.next())
            if let pair = P256KeyPair(scalar: candidate) {
                return pair
            }
        }
    }

    /// The key for a 32-byte big-endian private scalar; `nil` unless 32 bytes encoding a
    /// value in 1..<n.
    package init?(privateKey: [UInt8]) {
        guard privateKey.count == 32, let scalar = U256(bigEndian: privateKey) else { return nil }
        self.init(scalar: scalar)
    }

    /// The key for scalar d; `nil` unless 0 < d < n.
    package init?(scalar: U256) {
        guard !scalar.isZero, scalar < P256Order.modulus,
              let point = P256.multiplyGenerator(scalar).affine else { return nil }
        self.scalar = scalar
        publicPoint = point
    }

    /// The 32-byte big-endian private scalar.
    package var privateKey: [UInt8] { scalar.bigEndianBytes }

    /// The uncompressed public point, `04 ‖ X ‖ Y` (65 bytes): a TLS key share's and an
    /// SPKI's encoding.
    package var publicKeyX963: [UInt8] { publicPoint.x963 }

    /// ECDH: the x-coordinate (32 bytes big-endian) of d·Q for the peer's point Q.
    /// - Returns: `nil` if the peer key is not 65 bytes starting 04, a coordinate is ≥ p,
    ///   or the point is not on the curve.
    package func sharedSecret(peerPublicKeyX963: [UInt8]) -> [UInt8]? {
        guard let peer = P256AffinePoint(x963: peerPublicKeyX963),
              let product = P256.multiply(scalar, peer).affine else { return nil }
        return product.x.integer.bigEndianBytes
    }

    /// ECDSA P-256 with SHA-256 over `message`, as a DER `Ecdsa-Sig-Value`
    /// (SEQUENCE { INTEGER r, INTEGER s }), the form TLS 1.3 CertificateVerify and X.509
    /// signatures carry. The nonce is deterministic (RFC 6979).
    package func signatureDER(for message: [UInt8]) -> [UInt8] {
        let (r, s) = ECDSA.sign(digest: SHA256.hash(message), privateKey: scalar)
        return DERWriter.sequence(DERWriter.unsignedInteger(r.bigEndianBytes), DERWriter.unsignedInteger(s.bigEndianBytes))
    }
}

extension P256AffinePoint {
    /// Reads `04 ‖ X ‖ Y`; `nil` for any other length or prefix, a coordinate ≥ p, or a point
    /// not on the curve.
    package init?(x963 bytes: [UInt8]) {
        guard bytes.count == 65, bytes.first == 0x04,
              let x = U256(bigEndian: bytes[1..<33]), let y = U256(bigEndian: bytes[33..<65]) else { return nil }
        self.init(x: x, y: y)
    }

    /// `04 ‖ X ‖ Y`.
    package var x963: [UInt8] {
        [0x04] + x.integer.bigEndianBytes + y.integer.bigEndianBytes
    }
}
