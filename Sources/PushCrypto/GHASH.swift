// GHASH (NIST SP 800-38D §6.4), GCM's authenticator: a polynomial in the hash key H over
// GF(2^128), evaluated by Horner's rule, one multiplication by H per 16-byte block.
//
// Bit order is GCM's: the first bit of a block (the top bit of byte 0) is the coefficient of
// x^0. A block is held as two big-endian words (high = bytes 0–7), so multiplying by x is a
// right shift, and the bit shifted out of x^127 folds back as R = 0xE1 ‖ 0^120.
//
// Multiplication uses Shoup's 8-bit tables: per key, the 256 products b·H for every byte b
// (4 KiB, built once); per block, 16 lookups, each followed by a multiplication by x^8
// whose overflow byte is reduced with one more (key-independent) table.
//
// Runs of four whole blocks are hashed with aggregated reduction: Y ← (Y⊕X1)·H⁴ ⊕ X2·H³ ⊕
// X3·H² ⊕ X4·H, the four Horner evaluations interleaved byte by byte so that they share one
// multiplication by x^8 (and its reduction) per byte position. That takes tables for H², H³
// and H⁴ too (16 KiB per key, built in `init`; a key made for a few short records, a TLS
// handshake's, builds only H's 4 KiB and hashes one block per reduction). Like the single-block path, the lookups are
// indexed by secret bytes: not constant-time (a loopback test fake's cipher).

/// The per-key table for multiplying by the hash key H.
struct GHASHKey: Sendable {
    /// Four tables of 512 words, for H, H², H³ and H⁴ in that order (only H's without
    /// `powers`): in table k, products[512·k + 2·b] and products[512·k + 2·b + 1] are the
    /// high and low words of b·H^(k+1), where the byte b's top bit is the coefficient of x^0
    /// (GCM's order).
    let products: [UInt64]

    /// Words per power's table.
    static let tableWords = 512

    /// True when the tables for H², H³ and H⁴ are built: runs of four blocks are hashed
    /// with one reduction per byte position.
    var hasPowers: Bool { products.count == 4 * GHASHKey.tableWords }

    /// Builds the table for H (two big-endian words) and, with `powers`, those of H² to H⁴.
    init(h: (high: UInt64, low: UInt64), powers: Bool = true) {
        let tables = powers ? 4 : 1
        let words = tables * GHASHKey.tableWords
        // Every word is written by `fill` (uninitialized first: zeroing 16 KiB per key was
        // wasted work, four keys per TLS handshake).
        products = [UInt64](unsafeUninitializedCapacity: words) { table, initialized in
            guard let base = table.baseAddress else { return }
            var power = h
            GHASHKey.reduction.withUnsafeBufferPointer { reduction in
                guard let reduction = reduction.baseAddress else { return }
                for k in 0..<tables {
                    GHASHKey.fill(base + k * GHASHKey.tableWords, power)
                    if k < tables - 1 {
                        GHASHKey.multiply(&power, products: UnsafePointer(base), reduction: reduction)  // × H: the next power
                    }
                }
            }
            initialized = words
        }
    }

    /// Writes the 256 products b·value (512 words) at `table`.
    private static func fill(_ table: UnsafeMutablePointer<UInt64>, _ value: (high: UInt64, low: UInt64)) {
        table[0] = 0
        table[1] = 0
        // 0x80 is x^0, so it maps to the value itself; each lower bit is one more factor of x.
        var power = value
        var bit = 0x80
        while bit > 0 {
            table[2 &* bit] = power.high
            table[2 &* bit &+ 1] = power.low
            power = GHASHKey.timesX(power)
            bit >>= 1
        }
        // Every other byte is a sum (XOR) of its bits' entries: top + rest, rest below top.
        var top = 2
        while top < 256 {
            let high = table[2 &* top], low = table[2 &* top &+ 1]
            for rest in 1..<top {
                table[2 &* (top &+ rest)] = high ^ table[2 &* rest]
                table[2 &* (top &+ rest) &+ 1] = low ^ table[2 &* rest &+ 1]
            }
            top &<<= 1
        }
    }

    /// value · x in GCM's representation.
    @inline(__always)
    static func timesX(_ value: (high: UInt64, low: UInt64)) -> (high: UInt64, low: UInt64) {
        let carry = value.low & 1
        return ((value.high >> 1) ^ (carry == 0 ? 0 : 0xe100_0000_0000_0000), (value.low >> 1) | (value.high << 63))
    }

    /// reduction[b]: what shifting a value whose low byte is b right by 8 bits (× x^8) folds
    /// into the high word — the effect of b's bits passing x^127, computed with `timesX`.
    static let reduction: [UInt64] = (0..<256).map { byte in
        var value: (high: UInt64, low: UInt64) = (0, UInt64(byte))
        for _ in 0..<8 {
            value = timesX(value)
        }
        return value.high
    }

    /// state ← state · H.
    /// - Parameters:
    ///   - products: this key's `products`.
    ///   - reduction: `GHASHKey.reduction`.
    @inline(__always)
    static func multiply(
        _ state: inout (high: UInt64, low: UInt64), products: UnsafePointer<UInt64>, reduction: UnsafePointer<UInt64>
    ) {
        // Horner over the bytes from the last (highest powers of x) to the first.
        var high: UInt64 = 0
        var low: UInt64 = 0
        for half in 0..<2 {
            let word = half == 0 ? state.low : state.high
            var shift: UInt64 = 0
            while shift < 64 {
                let overflow = Int(truncatingIfNeeded: low & 0xff)
                low = (low >> 8) | (high << 56)
                high = (high >> 8) ^ reduction[overflow]
                let byte = Int(truncatingIfNeeded: (word >> shift) & 0xff)
                high ^= products[2 &* byte]
                low ^= products[2 &* byte &+ 1]
                shift &+= 8
            }
        }
        state = (high, low)
    }

    /// Absorbs `bytes` into `state`, the last partial block padded with zeros; runs of four
    /// blocks at once when `fourBlocks` (the key `hasPowers`).
    @inline(__always)
    static func update(
        _ state: inout (high: UInt64, low: UInt64), _ bytes: UnsafeRawBufferPointer,
        products: UnsafePointer<UInt64>, reduction: UnsafePointer<UInt64>, fourBlocks: Bool
    ) {
        var offset = 0
        let count = bytes.count
        if fourBlocks, count >= 64, let base = bytes.baseAddress {
            while count - offset >= 64 {
                multiplyFour(&state, base + offset, products: products, reduction: reduction)
                offset += 64
            }
        }
        while count - offset >= 16 {
            state.high ^= UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            state.low ^= UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
            multiply(&state, products: products, reduction: reduction)
            offset += 16
        }
        if offset < count {
            var block: (high: UInt64, low: UInt64) = (0, 0)
            for index in offset..<count {
                let position = index - offset
                let byte = UInt64(bytes[index])
                if position < 8 {
                    block.high |= byte << UInt64(56 - 8 * position)
                } else {
                    block.low |= byte << UInt64(120 - 8 * position)
                }
            }
            state.high ^= block.high
            state.low ^= block.low
            multiply(&state, products: products, reduction: reduction)
        }
    }

    /// state ← (state ⊕ X1)·H⁴ ⊕ X2·H³ ⊕ X3·H² ⊕ X4·H for the four blocks at `blocks`: four
    /// Horner steps at the cost of one reduction per byte position.
    @inline(__always)
    static func multiplyFour(
        _ state: inout (high: UInt64, low: UInt64), _ blocks: UnsafeRawPointer,
        products: UnsafePointer<UInt64>, reduction: UnsafePointer<UInt64>
    ) {
        let firstHigh = state.high ^ UInt64(bigEndian: blocks.loadUnaligned(as: UInt64.self))
        let firstLow = state.low ^ UInt64(bigEndian: blocks.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        let h4 = products + 3 * tableWords, h3 = products + 2 * tableWords, h2 = products + tableWords
        var high: UInt64 = 0
        var low: UInt64 = 0
        // Byte positions 15 down to 0: the low word's bytes from its last, then the high word's.
        for half in 0..<2 {
            let word = half == 0 ? firstLow : firstHigh
            var shift: UInt64 = 0
            var position = 15 &- 8 &* half
            while shift < 64 {
                let overflow = Int(truncatingIfNeeded: low & 0xff)
                low = (low >> 8) | (high << 56)
                high = (high >> 8) ^ reduction[overflow]
                let b1 = 2 &* Int(truncatingIfNeeded: (word >> shift) & 0xff)
                let b2 = 2 &* Int(blocks.load(fromByteOffset: 16 &+ position, as: UInt8.self))
                let b3 = 2 &* Int(blocks.load(fromByteOffset: 32 &+ position, as: UInt8.self))
                let b4 = 2 &* Int(blocks.load(fromByteOffset: 48 &+ position, as: UInt8.self))
                high ^= h4[b1] ^ h3[b2] ^ h2[b3] ^ products[b4]
                low ^= h4[b1 &+ 1] ^ h3[b2 &+ 1] ^ h2[b3 &+ 1] ^ products[b4 &+ 1]
                shift &+= 8
                position &-= 1
            }
        }
        state = (high, low)
    }
}
