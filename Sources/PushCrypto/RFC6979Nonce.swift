// Deterministic ECDSA nonces (RFC 6979 §3.2) for P-256 with SHA-256: an HMAC-DRBG seeded
// with the private key and the message digest. The same key and message always give the
// same k, so tests can reproduce signatures byte for byte and no randomness source is needed.

/// The RFC 6979 nonce sequence for one (key, digest) pair; the first candidate in 1..<n is k,
/// later ones are used only if k gave r = 0 or s = 0.
package struct RFC6979Nonce: Sendable {
    private var key: [UInt8]
    private var value: [UInt8]
    private var started = false

    /// Seeds the generator.
    /// - Parameters:
    ///   - privateKey: the 32-byte big-endian private scalar x (int2octets(x)).
    ///   - digest: the 32-byte SHA-256 of the message (h1).
    package init(privateKey: [UInt8], digest: [UInt8]) {
        // bits2octets(h1): h1 as an integer (qlen = hlen = 256) reduced mod n, 32 bytes.
        let reducedDigest = P256Scalar(U256(bigEndian: digest.prefix(32)) ?? .zero).integer.bigEndianBytes
        value = [UInt8](repeating: 0x01, count: 32)
        key = [UInt8](repeating: 0x00, count: 32)
        for separator: UInt8 in [0x00, 0x01] {
            var hmac = HMACSHA256.Authenticator(key: key)
            hmac.update(value)
            hmac.update([separator])
            hmac.update(privateKey)
            hmac.update(reducedDigest)
            key = hmac.finalize()
            value = HMACSHA256.authenticationCode(for: value, key: key)
        }
    }

    /// The next candidate k, 32 big-endian bytes, always in 1..<n.
    package mutating func next() -> [UInt8] {
        while true {
            if started {
                // Step h.3: the previous candidate was rejected by the caller or out of range.
                key = HMACSHA256.authenticationCode(for: value + [0x00], key: key)
                value = HMACSHA256.authenticationCode(for: value, key: key)
            }
            started = true
            value = HMACSHA256.authenticationCode(for: value, key: key)
            if let candidate = U256(bigEndian: value), !candidate.isZero, candidate < P256Order.modulus {
                return value
            }
        }
    }
}
