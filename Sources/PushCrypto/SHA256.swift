// SHA-256 (FIPS 180-4) in pure Swift: CryptoKit is not on Linux and the package takes no
// dependencies. Used for JWT signing inputs, HMAC and RFC 6979 nonces.

/// SHA-256 message digest.
///
/// One-shot: `SHA256.hash(bytes)`. Incremental: `var h = SHA256.Hasher(); h.update(...);
/// h.finalize()`.
package enum SHA256 {
    /// Digest length in bytes.
    package static let digestByteCount = 32
    /// Block length in bytes (HMAC pads its key to this).
    package static let blockByteCount = 64

    /// The 32-byte digest of `bytes`.
    package static func hash(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var hasher = Hasher()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// The 32-byte digest of `bytes` (array overload, avoids generic dispatch).
    package static func hash(_ bytes: [UInt8]) -> [UInt8] {
        var hasher = Hasher()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// An incremental SHA-256 computation: feed bytes with `update`, read the digest once.
    package struct Hasher: Sendable {
        private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
            0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a,
            0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
        )
        /// Bytes of the current, not yet full block.
        private var pending: [UInt8] = []
        /// Total message length in bytes so far (wraps like the spec's 64-bit length).
        private var byteCount: UInt64 = 0

        package init() {
            pending.reserveCapacity(SHA256.blockByteCount)
        }

        /// Appends `bytes` to the message.
        package mutating func update(_ bytes: some Collection<UInt8>) {
            if let done: Void = bytes.withContiguousStorageIfAvailable({ update(buffer: $0) }) {
                return done
            }
            update(Array(bytes))
        }

        /// Appends `bytes` to the message.
        package mutating func update(_ bytes: [UInt8]) {
            bytes.withUnsafeBufferPointer { update(buffer: $0) }
        }

        private mutating func update(buffer: UnsafeBufferPointer<UInt8>) {
            byteCount &+= UInt64(buffer.count)
            var index = 0
            if !pending.isEmpty {
                let take = min(SHA256.blockByteCount - pending.count, buffer.count)
                pending.append(contentsOf: buffer[0..<take])
                index = take
                if pending.count == SHA256.blockByteCount {
                    pending.withUnsafeBufferPointer { compress(block: $0, at: 0) }
                    pending.removeAll(keepingCapacity: true)
                }
            }
            while buffer.count - index >= SHA256.blockByteCount {
                compress(block: buffer, at: index)
                index += SHA256.blockByteCount
            }
            if index < buffer.count {
                pending.append(contentsOf: buffer[index...])
            }
        }

        /// Pads the message and returns its 32-byte digest.
        package consuming func finalize() -> [UInt8] {
            let bitLength = byteCount &* 8
            // The pending octets, 0x80, zeros and the 64-bit length: one block, or two when
            // fewer than 9 octets are left in this one.
            let blocks = pending.count < 56 ? 1 : 2
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 2 * SHA256.blockByteCount) { tail in
                guard let base = tail.baseAddress else { return }
                let end = blocks * SHA256.blockByteCount
                tail.initialize(repeating: 0)
                pending.withUnsafeBufferPointer { bytes in
                    if let source = bytes.baseAddress { base.update(from: source, count: bytes.count) }
                }
                base[pending.count] = 0x80
                UnsafeMutableRawPointer(base + end - 8).storeBytes(of: bitLength.bigEndian, as: UInt64.self)
                let padded = UnsafeBufferPointer(start: base, count: end)
                for block in 0..<blocks { compress(block: padded, at: block * SHA256.blockByteCount) }
            }
            let words = [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7]
            return [UInt8](unsafeUninitializedCapacity: SHA256.digestByteCount) { digest, initialized in
                guard let out = UnsafeMutableRawPointer(digest.baseAddress) else { return }
                for (index, word) in words.enumerated() {
                    out.storeBytes(of: word.bigEndian, toByteOffset: index * 4, as: UInt32.self)
                }
                initialized = SHA256.digestByteCount
            }
        }

        /// One 64-octet block at `block[start...]` into the state. The rounds run eight at a
        /// time with the working variables' roles rotated instead of moved, and the schedule
        /// is read as big-endian words: the plain loop cost ~4,700 instructions a block, and a
        /// TLS handshake hashes ~130 blocks (callgrind, issue 41).
        private mutating func compress(block: UnsafeBufferPointer<UInt8>, at start: Int) {
            guard let base = UnsafeRawPointer(block.baseAddress), block.count - start >= SHA256.blockByteCount else { return }
            let input = base + start
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { schedule in
                guard let w = schedule.baseAddress else { return }
                for t in 0..<16 {
                    w[t] = UInt32(bigEndian: input.loadUnaligned(fromByteOffset: t &* 4, as: UInt32.self))
                }
                for t in 16..<64 {
                    let x = w[t &- 15], y = w[t &- 2]
                    let s0 = rotr(x, 7) ^ rotr(x, 18) ^ (x &>> 3)
                    let s1 = rotr(y, 17) ^ rotr(y, 19) ^ (y &>> 10)
                    w[t] = w[t &- 16] &+ s0 &+ w[t &- 7] &+ s1
                }
                var (a, b, c, d, e, f, g, h) = state
                SHA256.roundConstants.withUnsafeBufferPointer { table in
                    guard let k = table.baseAddress else { return }
                    var t = 0
                    while t < 64 {
                        round(a, b, c, &d, e, f, g, &h, k[t] &+ w[t])
                        round(h, a, b, &c, d, e, f, &g, k[t &+ 1] &+ w[t &+ 1])
                        round(g, h, a, &b, c, d, e, &f, k[t &+ 2] &+ w[t &+ 2])
                        round(f, g, h, &a, b, c, d, &e, k[t &+ 3] &+ w[t &+ 3])
                        round(e, f, g, &h, a, b, c, &d, k[t &+ 4] &+ w[t &+ 4])
                        round(d, e, f, &g, h, a, b, &c, k[t &+ 5] &+ w[t &+ 5])
                        round(c, d, e, &f, g, h, a, &b, k[t &+ 6] &+ w[t &+ 6])
                        round(b, c, d, &e, f, g, h, &a, k[t &+ 7] &+ w[t &+ 7])
                        t &+= 8
                    }
                }
                state.0 &+= a
                state.1 &+= b
                state.2 &+= c
                state.3 &+= d
                state.4 &+= e
                state.5 &+= f
                state.6 &+= g
                state.7 &+= h
            }
        }

        /// One round (FIPS 180-4 §6.2.2 step 3) with the variables in their roles of this
        /// round: `d` gains T1, and `h` becomes T1 + T2, the next round's `a`. `kw` is the
        /// round constant plus the schedule word.
        @inline(__always)
        private func round(
            _ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32,
            _ e: UInt32, _ f: UInt32, _ g: UInt32, _ h: inout UInt32, _ kw: UInt32
        ) {
            let t1 = h &+ (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) &+ (g ^ (e & (f ^ g))) &+ kw
            d &+= t1
            h = t1 &+ (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) &+ ((a & b) | (c & (a | b)))
        }

        @inline(__always)
        private func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 {
            (x &>> n) | (x &<< (32 &- n))
        }
    }

    /// The first 32 bits of the fractional parts of the cube roots of the first 64 primes.
    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]
}
