// PBKDF2 with HMAC-SHA-256 (RFC 8018 §5.2): the password-based key derivation of PBES2, which
// turns a PKCS#12 file's password into its AES-256 key.

/// PBKDF2-HMAC-SHA256.
package enum PBKDF2 {
    /// The most iterations `deriveKey` runs: far above what files use (OpenSSL writes 2,048),
    /// low enough that a hostile count cannot hang a reader for long.
    package static let maximumIterations = 10_000_000

    /// `length` bytes of T₁ ‖ T₂ ‖ …, Tᵢ = U₁ ⊕ … ⊕ U_c with U₁ = HMAC(P, S ‖ INT(i)) and
    /// Uⱼ = HMAC(P, Uⱼ₋₁).
    /// - Returns: the key, or nil when `iterations` is not 1…`maximumIterations` or `length`
    ///   is not 1…`HKDF.maximumLength` (8,160 bytes; RFC 8018 allows more, nothing here needs it).
    package static func deriveKey(password: [UInt8], salt: [UInt8], iterations: Int, length: Int) -> [UInt8]? {
        guard (1...maximumIterations).contains(iterations), (1...HKDF.maximumLength).contains(length) else { return nil }
        // The key's padded blocks are hashed once; each U is a copy of this started HMAC.
        let keyed = HMACSHA256.Authenticator(key: password)
        var output: [UInt8] = []
        output.reserveCapacity(length + SHA256.digestByteCount)
        var blockIndex: UInt32 = 1
        while output.count < length {
            var hmac = keyed
            hmac.update(salt + [UInt8(blockIndex >> 24), UInt8(truncatingIfNeeded: blockIndex >> 16),
                                UInt8(truncatingIfNeeded: blockIndex >> 8), UInt8(truncatingIfNeeded: blockIndex)])
            var u = hmac.finalize()
            var block = u
            for _ in 1..<iterations {
                var next = keyed
                next.update(u)
                u = next.finalize()
                for index in 0..<block.count { block[index] ^= u[index] }
            }
            output += block
            blockIndex += 1
        }
        return Array(output.prefix(length))
    }
}
