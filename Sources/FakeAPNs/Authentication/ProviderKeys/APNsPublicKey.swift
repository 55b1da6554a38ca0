import PushCrypto

// The provider's public key, which the fake registers per key id to verify provider tokens.

/// A P-256 public key that verifies ES256 provider-token signatures.
///
/// ```swift
/// let key = try APNsPublicKey(pemRepresentation: pem)   // SPKI, or a private key PEM
/// key.isValidSignature(signature, for: Array(signingInput.utf8))
/// ```
public struct APNsPublicKey: Sendable, Hashable {
    /// The validated point (on the curve, not infinity).
    let point: P256AffinePoint

    init(point: P256AffinePoint) {
        self.point = point
    }

    /// Reads an uncompressed X9.63 point, `04 ‖ X ‖ Y` (65 bytes).
    /// - Throws: `APNsKeyError.invalidPublicKey` if the length or prefix is wrong, a
    ///   coordinate is ≥ p, or the point is not on P-256.
    public init(x963Representation bytes: [UInt8]) throws(APNsKeyError) {
        guard bytes.count == 65 else {
            if bytes.count == 33, bytes.first == 0x02 || bytes.first == 0x03 {
                throw .with(.invalidPublicKey, "compressed points are not supported; export the key uncompressed (04 ‖ X ‖ Y)")
            }
            throw .with(.invalidPublicKey, "expected 65 bytes (04 ‖ X ‖ Y), found \(bytes.count)")
        }
        guard bytes.first == 0x04 else {
            throw .with(.invalidPublicKey, "expected the uncompressed prefix 0x04, found 0x\(String(bytes.first ?? 0, radix: 16))")
        }
        guard let x = U256(bigEndian: bytes[1..<33]), let y = U256(bigEndian: bytes[33..<65]),
              let point = P256AffinePoint(x: x, y: y) else {
            throw .with(.invalidPublicKey, "the point is not on the P-256 curve")
        }
        self.point = point
    }

    /// The uncompressed X9.63 form, `04 ‖ X ‖ Y` (65 bytes).
    public var x963Representation: [UInt8] {
        point.x963
    }

    /// Whether `rawSignature` (r ‖ s, 64 bytes) is a valid ES256 signature of `message`.
    ///
    /// Rejects any other length and r or s equal to 0 or ≥ n. Accepts high-S signatures
    /// (s > n/2): ECDSA, JWS ES256 and APNs all do.
    public func isValidSignature(_ rawSignature: [UInt8], for message: [UInt8]) -> Bool {
        isValidSignature(rawSignature, digest: SHA256.hash(message))
    }

    /// Whether `rawSignature` (r ‖ s) is valid for an already computed SHA-256 `digest`.
    package func isValidSignature(_ rawSignature: [UInt8], digest: [UInt8]) -> Bool {
        guard rawSignature.count == 64,
              let r = U256(bigEndian: rawSignature[0..<32]),
              let s = U256(bigEndian: rawSignature[32..<64]) else { return false }
        return ECDSA.verify(r: r, s: s, digest: digest, publicKey: point)
    }
}

extension APNsPublicKey: CustomStringConvertible {
    /// The X9.63 point in hex, abbreviated: enough to tell keys apart in test output.
    public var description: String {
        let hex = x963Representation.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        return "APNsPublicKey(\(hex.prefix(18))…\(hex.suffix(8)))"
    }
}
