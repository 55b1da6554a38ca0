// AES-128-GCM (NIST SP 800-38D), the AEAD of TLS_AES_128_GCM_SHA256: counter-mode AES for
// secrecy, GHASH over the additional data and the ciphertext for integrity.

/// AES-128 in Galois/Counter Mode with 16-byte tags.
///
/// ```swift
/// let aead = AES128GCM(key: key)!          // 16-byte key
/// let sealed = aead.seal(plaintext, nonce: nonce, additionalData: header)   // ciphertext ‖ tag
/// let opened = aead.open(sealed[...], nonce: nonce, additionalData: header)  // nil if tampered
/// ```
///
/// The key schedule and the GHASH table are computed once, in `init`; sealing and opening
/// allocate only their output, and the in-place forms (`seal(inPlace:…)`, `open(inPlace:…)`)
/// nothing beyond the buffer's growth. Not constant-time (table lookups, on purpose): this is
/// a loopback test fake's cipher, never for secrets that matter. The counter mode caches the
/// first two rounds' lookups that do not depend on the counter's last byte (AES+CounterMode.swift)
/// and GHASH hashes four blocks per reduction (GHASH.swift); both are as table-driven, and as
/// little constant-time, as the plain block cipher and GHASH were.
package struct AES128GCM: Sendable {
    /// Length of the authentication tag appended by `seal`.
    package static let tagByteCount = 16

    private let cipher: AES
    private let hashKey: GHASHKey

    /// Prepares a 16-byte key; `nil` for any other length.
    /// - Parameter fewRecords: true for a key that protects a few short records (a TLS
    ///   handshake's): GHASH builds only H's table (4 KiB, not 16) and hashes a block per
    ///   reduction. The bytes sealed and opened are the same either way.
    package init?(key: [UInt8], fewRecords: Bool = false) {
        guard key.count == 16, let cipher = AES(key: key) else { return nil }
        self.cipher = cipher
        let h = cipher.roundKeys.withUnsafeBufferPointer { keys in
            AES.tables.withUnsafeBufferPointer { tables in
                AES128GCM.encrypt((0, 0, 0, 0), keys, cipher.rounds, tables)
            }
        }
        hashKey = GHASHKey(h: (UInt64(h.0) << 32 | UInt64(h.1), UInt64(h.2) << 32 | UInt64(h.3)), powers: !fewRecords)
    }

    /// Encrypts and authenticates.
    /// - Parameters:
    ///   - nonce: the IV; 12 bytes in TLS (other lengths are hashed into the first counter
    ///     block, as SP 800-38D §7.1 says).
    ///   - additionalData: authenticated but not encrypted (the TLS record header).
    /// - Returns: the ciphertext (as long as `plaintext`) followed by the 16-byte tag.
    package func seal(_ plaintext: [UInt8], nonce: [UInt8], additionalData: [UInt8]) -> [UInt8] {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(plaintext.count + AES128GCM.tagByteCount)
        buffer.append(contentsOf: plaintext)
        seal(inPlace: &buffer, from: 0, nonce: nonce, additionalData: additionalData)
        return buffer
    }

    /// Verifies and decrypts.
    /// - Parameter ciphertextAndTag: the ciphertext followed by its 16-byte tag.
    /// - Returns: the plaintext, or `nil` when the input is shorter than a tag or the tag does
    ///   not match (wrong key, nonce or additional data, or altered bytes).
    package func open(_ ciphertextAndTag: ArraySlice<UInt8>, nonce: [UInt8], additionalData: [UInt8]) -> [UInt8]? {
        var buffer = Array(ciphertextAndTag)
        return open(inPlace: &buffer, from: 0, nonce: nonce, additionalData: additionalData) ? buffer : nil
    }

    /// Encrypts `buffer[start...]` where it lies and appends the 16-byte tag: a TLS record
    /// sealed in the output buffer, with no other allocation than the buffer's growth.
    package func seal(inPlace buffer: inout [UInt8], from start: Int, nonce: [UInt8], additionalData: [UInt8]) {
        buffer.append(contentsOf: AES128GCM.zeroTag)
        let count = buffer.count - start - AES128GCM.tagByteCount
        buffer.withUnsafeMutableBytes { whole in
            let region = UnsafeMutableRawBufferPointer(rebasing: whole[start...])
            let tag = crypt(region, count: count, nonce: nonce, additionalData: additionalData, encrypting: true)
            store(tag, into: region, at: count)
        }
    }

    /// Verifies and decrypts `buffer[start...]` (ciphertext then its 16-byte tag) where it
    /// lies: on success the plaintext stays there, the tag removed; on failure (fewer than 16
    /// bytes, or a tag that does not match) `buffer` is cut back to `start` and nothing
    /// decrypted remains.
    /// - Returns: whether the tag matched.
    package func open(inPlace buffer: inout [UInt8], from start: Int, nonce: [UInt8], additionalData: [UInt8]) -> Bool {
        let count = buffer.count - start - AES128GCM.tagByteCount
        guard count >= 0 else {
            buffer.removeSubrange(start...)
            return false
        }
        let matches = buffer.withUnsafeMutableBytes { whole in
            let region = UnsafeMutableRawBufferPointer(rebasing: whole[start...])
            let tag = crypt(region, count: count, nonce: nonce, additionalData: additionalData, encrypting: false)
            let received = (UInt64(bigEndian: region.loadUnaligned(fromByteOffset: count, as: UInt64.self)),
                            UInt64(bigEndian: region.loadUnaligned(fromByteOffset: count + 8, as: UInt64.self)))
            // Compare without an early exit, so the time does not say how much matched.
            return ((tag.high ^ received.0) | (tag.low ^ received.1)) == 0
        }
        buffer.removeSubrange((matches ? start + count : start)...)
        return matches
    }

    private static let zeroTag = [UInt8](repeating: 0, count: tagByteCount)

    /// Counter-mode XOR of `bytes[0..<count]` in place, and GHASH over the ciphertext (hashed
    /// after encrypting, before decrypting).
    /// - Returns: the tag, E(K, J0) ⊕ GHASH(A, C).
    @inline(__always)  // each caller's copy has `encrypting` constant (no flag tested per call)
    private func crypt(
        _ bytes: UnsafeMutableRawBufferPointer, count: Int, nonce: [UInt8], additionalData: [UInt8], encrypting: Bool
    ) -> (high: UInt64, low: UInt64) {
        cipher.roundKeys.withUnsafeBufferPointer { keyBuffer in
            AES.tables.withUnsafeBufferPointer { tableBuffer in
                hashKey.products.withUnsafeBufferPointer { productBuffer in
                    GHASHKey.reduction.withUnsafeBufferPointer { reductionBuffer in
                        guard let keys = keyBuffer.baseAddress, let tables = tableBuffer.baseAddress,
                              let products = productBuffer.baseAddress, let reduction = reductionBuffer.baseAddress else {
                            return (0, 0)
                        }
                        let four = hashKey.hasPowers
                        let counter0 = firstCounterBlock(nonce, products, reduction, four)
                        let ciphertext = UnsafeRawBufferPointer(rebasing: bytes[0..<count])
                        var state: (high: UInt64, low: UInt64) = (0, 0)
                        additionalData.withUnsafeBytes {
                            GHASHKey.update(&state, $0, products: products, reduction: reduction, fourBlocks: four)
                        }
                        if !encrypting { GHASHKey.update(&state, ciphertext, products: products, reduction: reduction, fourBlocks: four) }
                        AES.xorKeyStream128(bytes, count: count, after: counter0, keys: keys, tables: tables)
                        if encrypting { GHASHKey.update(&state, ciphertext, products: products, reduction: reduction, fourBlocks: four) }
                        state.high ^= UInt64(additionalData.count) &* 8
                        state.low ^= UInt64(count) &* 8
                        GHASHKey.multiply(&state, products: products, reduction: reduction)
                        let mask = AES.encrypt(counter0, keys: keys, rounds: cipher.rounds, tables: tables)
                        return (state.high ^ (UInt64(mask.0) << 32 | UInt64(mask.1)), state.low ^ (UInt64(mask.2) << 32 | UInt64(mask.3)))
                    }
                }
            }
        }
    }

    /// J0: nonce ‖ 0^31 ‖ 1 for a 12-byte nonce, else GHASH(nonce ‖ padding ‖ 0^64 ‖ bit length).
    private func firstCounterBlock(
        _ nonce: [UInt8], _ products: UnsafePointer<UInt64>, _ reduction: UnsafePointer<UInt64>, _ four: Bool
    ) -> (UInt32, UInt32, UInt32, UInt32) {
        if nonce.count == 12 {
            return nonce.withUnsafeBytes { bytes in
                (UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: 0, as: UInt32.self)),
                 UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: 4, as: UInt32.self)),
                 UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt32.self)), 1)
            }
        }
        var state: (high: UInt64, low: UInt64) = (0, 0)
        nonce.withUnsafeBytes { GHASHKey.update(&state, $0, products: products, reduction: reduction, fourBlocks: four) }
        state.low ^= UInt64(nonce.count) &* 8
        GHASHKey.multiply(&state, products: products, reduction: reduction)
        return (UInt32(truncatingIfNeeded: state.high >> 32), UInt32(truncatingIfNeeded: state.high),
                UInt32(truncatingIfNeeded: state.low >> 32), UInt32(truncatingIfNeeded: state.low))
    }

    private static func encrypt(
        _ block: (UInt32, UInt32, UInt32, UInt32), _ keys: UnsafeBufferPointer<UInt32>, _ rounds: Int,
        _ tables: UnsafeBufferPointer<UInt32>
    ) -> (UInt32, UInt32, UInt32, UInt32) {
        guard let keys = keys.baseAddress, let tables = tables.baseAddress else { return block }
        return AES.encrypt(block, keys: keys, rounds: rounds, tables: tables)
    }

    /// Writes the tag's 16 bytes at `offset`.
    private func store(_ tag: (high: UInt64, low: UInt64), into output: UnsafeMutableRawBufferPointer, at offset: Int) {
        output.storeBytes(of: tag.high.bigEndian, toByteOffset: offset, as: UInt64.self)
        output.storeBytes(of: tag.low.bigEndian, toByteOffset: offset + 8, as: UInt64.self)
    }
}
