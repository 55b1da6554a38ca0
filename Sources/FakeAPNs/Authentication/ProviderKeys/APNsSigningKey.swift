import PushCrypto

// The provider's private key: signs JWT provider tokens the way a real APNs sender does.

/// A P-256 private key for ES256 provider tokens — what Apple's `.p8` file holds.
///
/// ```swift
/// let key = try APNsSigningKey(pemRepresentation: String(contentsOfFile: "AuthKey_ABC123DEFG.p8", encoding: .utf8))
/// let token = ProviderToken.mint(keyID: "ABC123DEFG", teamID: "DEF123GHIJ", signingKey: key)
/// ```
///
/// The arithmetic is not constant-time; it is meant for test keys on loopback, not for
/// production secrets.
public struct APNsSigningKey: Sendable {
    /// The private scalar d, 1 ≤ d < n.
    let scalar: U256
    /// The matching public key, d·G.
    public let publicKey: APNsPublicKey

    /// Makes a key from its 32-byte big-endian private scalar.
    /// - Throws: `APNsKeyError.invalidPrivateKey` unless 32 bytes encoding a value in 1..<n.
    public init(rawRepresentation: [UInt8]) throws(APNsKeyError) {
        guard rawRepresentation.count == 32 else {
            throw .with(.invalidPrivateKey, "expected 32 bytes, found \(rawRepresentation.count)")
        }
        guard let scalar = U256(bigEndian: rawRepresentation), !scalar.isZero, scalar < P256Order.modulus else {
            throw .with(.invalidPrivateKey, "the scalar must be between 1 and n − 1 (the P-256 group order)")
        }
        self.init(validScalar: scalar)
    }

    init(validScalar scalar: U256) {
        self.scalar = scalar
        // d is in 1..<n, so d·G is never infinity; the fallback is unreachable.
        let point = P256.multiplyGenerator(scalar).affine ?? P256AffinePoint.generator
        publicKey = APNsPublicKey(point: point)
    }

    /// A fresh random key (from the system's random number generator).
    public static func generate() -> APNsSigningKey {
        let pair = P256KeyPair.generate()
        return APNsSigningKey(scalar: pair.scalar, publicKey: APNsPublicKey(point: pair.publicPoint))
    }

    private init(scalar: U256, publicKey: APNsPublicKey) {
        self.scalar = scalar
        self.publicKey = publicKey
    }

    /// The 32-byte big-endian private scalar.
    public var rawRepresentation: [UInt8] { scalar.bigEndianBytes }

    /// Signs `message` with ECDSA P-256/SHA-256 (ES256).
    ///
    /// The nonce is deterministic (RFC 6979), so the same key and message always give the
    /// same signature; s is not normalised to the low half (JWS does not require it).
    /// - Returns: 64 bytes, r ‖ s, each 32 bytes big-endian — the JWS signature format.
    public func signature(for message: [UInt8]) -> [UInt8] {
        let (r, s) = ECDSA.sign(digest: SHA256.hash(message), privateKey: scalar)
        return r.bigEndianBytes + s.bigEndianBytes
    }
}

extension APNsSigningKey: CustomStringConvertible {
    /// Names the public key only, so a failing test's output never shows the private scalar.
    public var description: String { "APNsSigningKey(publicKey: \(publicKey))" }
}
