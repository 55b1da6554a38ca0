// HKDF with HMAC-SHA-256 (RFC 5869): TLS 1.3's key schedule (RFC 8446 §7.1) is built from
// its two halves, with HKDF-Expand-Label wrapping `expand`.

/// HMAC-based key derivation with SHA-256.
package enum HKDF {
    /// The most `expand` can produce: 255 blocks of 32 bytes (RFC 5869 §2.3).
    package static let maximumLength = 255 * SHA256.digestByteCount

    /// HKDF-Extract: the 32-byte pseudorandom key HMAC-SHA-256(salt, IKM).
    ///
    /// An empty salt acts as 32 zero bytes, as RFC 5869 §2.2 asks: HMAC pads its key with
    /// zeros to a block either way.
    package static func extract(salt: [UInt8], inputKeyingMaterial: [UInt8]) -> [UInt8] {
        HMACSHA256.authenticationCode(for: inputKeyingMaterial, key: salt)
    }

    /// HKDF-Expand: `length` bytes of T(1) ‖ T(2) ‖ …, T(i) = HMAC(PRK, T(i−1) ‖ info ‖ i).
    ///
    /// `length` is clamped to 0…`maximumLength` (8,160); TLS asks for at most 32.
    package static func expand(pseudoRandomKey: [UInt8], info: [UInt8], length: Int) -> [UInt8] {
        let wanted = min(max(length, 0), maximumLength)
        var output: [UInt8] = []
        output.reserveCapacity(wanted + SHA256.digestByteCount)
        var previous: [UInt8] = []
        var counter: UInt8 = 1
        while output.count < wanted {
            var hmac = HMACSHA256.Authenticator(key: pseudoRandomKey)
            hmac.update(previous)
            hmac.update(info)
            hmac.update([counter])
            previous = hmac.finalize()
            output += previous
            counter &+= 1
        }
        return Array(output.prefix(wanted))
    }
}
