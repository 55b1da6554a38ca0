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
/// allocate only their output. Not constant-time (table lookups): for tests on loopback.
package struct AES128GCM: Sendable {
    /// Length of the authentication tag appended by `seal`.
    package static let tagByteCount = 16

    private let cipher: AES
    private let hashKey: GHASHKey

    /// Prepares a 16-byte key; `nil` for any other length.
    package init?(key: [UInt8]) {
        guard key.count == 16, let cipher = AES(key: key) else { return nil }
        self.cipher = cipher
        let h = cipher.roundKeys.withUnsafeBufferPointer { keys in
            AES.tables.withUnsafeBufferPointer { tables in
                AES128GCM.encrypt((0, 0, 0, 0), keys, cipher.rounds, tables)
            }
        }
        hashKey = GHASHKey(h: (UInt64(h.0) << 32 | UInt64(h.1), UInt64(h.2) << 32 | UInt64(h.3)))
    }

    /// Encrypts and authenticates.
    /// - Parameters:
    ///   - nonce: the IV; 12 bytes in TLS (other lengths are hashed into the first counter
    ///     block, as SP 800-38D §7.1 says).
    ///   - additionalData: authenticated but not encrypted (the TLS record header).
    /// - Returns: the ciphertext (as long as `plaintext`) followed by the 16-byte tag.
    package func seal(_ plaintext: [UInt8], nonce: [UInt8], additionalData: [UInt8]) -> [UInt8] {
        let count = plaintext.count
        return [UInt8](unsafeUninitializedCapacity: count + AES128GCM.tagByteCount) { output, initialized in
            let tag = plaintext.withUnsafeBytes { input in
                crypt(input, into: UnsafeMutableRawBufferPointer(output), nonce: nonce, additionalData: additionalData, encrypting: true)
            }
            store(tag, into: UnsafeMutableRawBufferPointer(output), at: count)
            initialized = count + AES128GCM.tagByteCount
        }
    }

    /// Verifies and decrypts.
    /// - Parameter ciphertextAndTag: the ciphertext followed by its 16-byte tag.
    /// - Returns: the plaintext, or `nil` when the input is shorter than a tag or the tag does
    ///   not match (wrong key, nonce or additional data, or altered bytes).
    package func open(_ ciphertextAndTag: ArraySlice<UInt8>, nonce: [UInt8], additionalData: [UInt8]) -> [UInt8]? {
        guard ciphertextAndTag.count >= AES128GCM.tagByteCount else { return nil }
        let count = ciphertextAndTag.count - AES128GCM.tagByteCount
        var matches = false
        let plaintext = [UInt8](unsafeUninitializedCapacity: count) { output, initialized in
            ciphertextAndTag.withUnsafeBytes { input in
                let tag = crypt(UnsafeRawBufferPointer(rebasing: input[0..<count]), into: UnsafeMutableRawBufferPointer(output),
                                nonce: nonce, additionalData: additionalData, encrypting: false)
                let received = (UInt64(bigEndian: input.loadUnaligned(fromByteOffset: count, as: UInt64.self)),
                                UInt64(bigEndian: input.loadUnaligned(fromByteOffset: count + 8, as: UInt64.self)))
                // Compare without an early exit, so the time does not say how much matched.
                matches = ((tag.high ^ received.0) | (tag.low ^ received.1)) == 0
            }
            initialized = count
        }
        return matches ? plaintext : nil
    }

    /// Counter-mode XOR of `input` into `output` (same length or longer) and GHASH over the
    /// ciphertext (the output when encrypting, the input when decrypting).
    /// - Returns: the tag, E(K, J0) ⊕ GHASH(A, C).
    private func crypt(
        _ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer,
        nonce: [UInt8], additionalData: [UInt8], encrypting: Bool
    ) -> (high: UInt64, low: UInt64) {
        cipher.roundKeys.withUnsafeBufferPointer { keyBuffer in
            AES.tables.withUnsafeBufferPointer { tableBuffer in
                hashKey.products.withUnsafeBufferPointer { productBuffer in
                    GHASHKey.reduction.withUnsafeBufferPointer { reductionBuffer in
                        guard let keys = keyBuffer.baseAddress, let tables = tableBuffer.baseAddress,
                              let products = productBuffer.baseAddress, let reduction = reductionBuffer.baseAddress else {
                            return (0, 0)
                        }
                        let counter0 = firstCounterBlock(nonce, products, reduction)
                        var counter = counter0
                        let count = input.count
                        var offset = 0
                        while offset < count {
                            counter.3 &+= 1  // inc32
                            let stream = AES.encrypt(counter, keys: keys, rounds: cipher.rounds, tables: tables)
                            if count - offset >= 16 {
                                xorWord(stream.0, input, output, offset)
                                xorWord(stream.1, input, output, offset + 4)
                                xorWord(stream.2, input, output, offset + 8)
                                xorWord(stream.3, input, output, offset + 12)
                            } else {
                                for index in offset..<count {
                                    let position = index - offset
                                    let word = switch position / 4 {
                                    case 0: stream.0
                                    case 1: stream.1
                                    case 2: stream.2
                                    default: stream.3
                                    }
                                    output[index] = input[index] ^ UInt8(truncatingIfNeeded: word >> UInt32(24 - 8 * (position % 4)))
                                }
                            }
                            offset += 16
                        }
                        var state: (high: UInt64, low: UInt64) = (0, 0)
                        additionalData.withUnsafeBytes { GHASHKey.update(&state, $0, products: products, reduction: reduction) }
                        let ciphertext = encrypting ? UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(output)[0..<count]) : input
                        GHASHKey.update(&state, ciphertext, products: products, reduction: reduction)
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
        _ nonce: [UInt8], _ products: UnsafePointer<UInt64>, _ reduction: UnsafePointer<UInt64>
    ) -> (UInt32, UInt32, UInt32, UInt32) {
        if nonce.count == 12 {
            return nonce.withUnsafeBytes { bytes in
                (UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: 0, as: UInt32.self)),
                 UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: 4, as: UInt32.self)),
                 UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt32.self)), 1)
            }
        }
        var state: (high: UInt64, low: UInt64) = (0, 0)
        nonce.withUnsafeBytes { GHASHKey.update(&state, $0, products: products, reduction: reduction) }
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

    /// output[offset..<offset+4] = input[offset..<offset+4] ⊕ the big-endian bytes of `word`.
    @inline(__always)
    private func xorWord(_ word: UInt32, _ input: UnsafeRawBufferPointer, _ output: UnsafeMutableRawBufferPointer, _ offset: Int) {
        let value = UInt32(bigEndian: input.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) ^ word
        output.storeBytes(of: value.bigEndian, toByteOffset: offset, as: UInt32.self)
    }

    /// Writes the tag's 16 bytes at `offset`.
    private func store(_ tag: (high: UInt64, low: UInt64), into output: UnsafeMutableRawBufferPointer, at offset: Int) {
        output.storeBytes(of: tag.high.bigEndian, toByteOffset: offset, as: UInt64.self)
        output.storeBytes(of: tag.low.bigEndian, toByteOffset: offset + 8, as: UInt64.self)
    }
}
