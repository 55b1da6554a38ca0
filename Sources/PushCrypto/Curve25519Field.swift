// Arithmetic in GF(2^255 − 19) for X25519, with five 51-bit limbs. Products of limbs are
// 128 bits wide (`multipliedFullWidth`, no UInt128 so older Apple systems build it), and
// 2^255 ≡ 19 folds the upper half of a product back onto the lower limbs.

/// An element of GF(2^255 − 19): l0 + l1·2^51 + … + l4·2^204. Between operations a limb
/// may exceed 51 bits by a few bits; `littleEndianBytes` reduces fully.
struct Curve25519Field: Sendable {
    var l0: UInt64, l1: UInt64, l2: UInt64, l3: UInt64, l4: UInt64

    static let mask: UInt64 = (1 << 51) - 1
    static let zero = Curve25519Field(l0: 0, l1: 0, l2: 0, l3: 0, l4: 0)
    static let one = Curve25519Field(l0: 1, l1: 0, l2: 0, l3: 0, l4: 0)

    init(l0: UInt64, l1: UInt64, l2: UInt64, l3: UInt64, l4: UInt64) {
        (self.l0, self.l1, self.l2, self.l3, self.l4) = (l0, l1, l2, l3, l4)
    }

    /// Reads 32 little-endian bytes, ignoring the top bit (RFC 7748 §5 masks it). Values in
    /// p..<2^255 are accepted and behave as their residue.
    init(littleEndian bytes: [UInt8]) {
        var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        for (index, byte) in bytes.prefix(32).enumerated() {
            let value = UInt64(byte) << UInt64(8 * (index % 8))
            switch index / 8 {
            case 0: words.0 |= value
            case 1: words.1 |= value
            case 2: words.2 |= value
            default: words.3 |= value
            }
        }
        let mask = Curve25519Field.mask
        self.init(l0: words.0 & mask, l1: (words.0 >> 51 | words.1 << 13) & mask, l2: (words.1 >> 38 | words.2 << 26) & mask,
                  l3: (words.2 >> 25 | words.3 << 39) & mask, l4: (words.3 >> 12) & mask)
    }

    /// The canonical value (below p) as 32 little-endian bytes.
    var littleEndianBytes: [UInt8] {
        var value = self
        value.carry()
        value.carry()
        // value < 2^255 + 19 now; it is ≥ p exactly when value + 19 reaches 2^255, and then
        // value − p = value + 19 − 2^255.
        var overflow = (value.l0 + 19) >> 51
        overflow = (value.l1 + overflow) >> 51
        overflow = (value.l2 + overflow) >> 51
        overflow = (value.l3 + overflow) >> 51
        overflow = (value.l4 + overflow) >> 51
        value.l0 += 19 * overflow
        value.carry(foldingTop: false)
        let words = [value.l0 | value.l1 << 51, value.l1 >> 13 | value.l2 << 38,
                     value.l2 >> 26 | value.l3 << 25, value.l3 >> 39 | value.l4 << 12]
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for word in words {
            for shift in stride(from: 0, to: 64, by: 8) {
                bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift)))
            }
        }
        return bytes
    }

    /// One carry pass: every limb below 2^51, the carry out of l4 folded into l0 times 19
    /// (which may leave l0 a little above 2^51) — or, with `foldingTop` false, dropped, to
    /// take 2^255 off a value known to be below 2^256.
    private mutating func carry(foldingTop: Bool = true) {
        let mask = Curve25519Field.mask
        l1 += l0 >> 51
        l0 &= mask
        l2 += l1 >> 51
        l1 &= mask
        l3 += l2 >> 51
        l2 &= mask
        l4 += l3 >> 51
        l3 &= mask
        if foldingTop {
            l0 += 19 * (l4 >> 51)
        }
        l4 &= mask
    }

    @inline(__always)
    static func + (a: Curve25519Field, b: Curve25519Field) -> Curve25519Field {
        Curve25519Field(l0: a.l0 + b.l0, l1: a.l1 + b.l1, l2: a.l2 + b.l2, l3: a.l3 + b.l3, l4: a.l4 + b.l4)
    }

    /// a − b computed as a + 2p − b, so no limb goes negative while b's limbs are below 2^52
    /// (true of every product, which is what the ladder subtracts).
    @inline(__always)
    static func - (a: Curve25519Field, b: Curve25519Field) -> Curve25519Field {
        Curve25519Field(l0: a.l0 + 0xf_ffff_ffff_ffda - b.l0, l1: a.l1 + 0xf_ffff_ffff_fffe - b.l1,
                        l2: a.l2 + 0xf_ffff_ffff_fffe - b.l2, l3: a.l3 + 0xf_ffff_ffff_fffe - b.l3,
                        l4: a.l4 + 0xf_ffff_ffff_fffe - b.l4)
    }

    /// The product, limbs back below 2^51 (l1 a little above). Inputs' limbs must be below 2^54.
    @inline(__always)
    static func * (a: Curve25519Field, b: Curve25519Field) -> Curve25519Field {
        let b1 = 19 &* b.l1, b2 = 19 &* b.l2, b3 = 19 &* b.l3, b4 = 19 &* b.l4
        // Column by column: one 128-bit sum live at a time, not five (fewer spills).
        var c0 = Wide(a.l0, b.l0); c0.add(a.l1, b4); c0.add(a.l2, b3); c0.add(a.l3, b2); c0.add(a.l4, b1)
        var c1 = Wide(a.l0, b.l1); c1.add(a.l1, b.l0); c1.add(a.l2, b4); c1.add(a.l3, b3); c1.add(a.l4, b2)
        var c2 = Wide(a.l0, b.l2); c2.add(a.l1, b.l1); c2.add(a.l2, b.l0); c2.add(a.l3, b4); c2.add(a.l4, b3)
        var c3 = Wide(a.l0, b.l3); c3.add(a.l1, b.l2); c3.add(a.l2, b.l1); c3.add(a.l3, b.l0); c3.add(a.l4, b4)
        var c4 = Wide(a.l0, b.l4); c4.add(a.l1, b.l3); c4.add(a.l2, b.l2); c4.add(a.l3, b.l1); c4.add(a.l4, b.l0)
        return carried(c0, c1, c2, c3, c4)
    }

    /// self², with the cross products computed once and doubled (15 limb products, not 25).
    @inline(__always)
    func squared() -> Curve25519Field {
        let d0 = 2 * l0, d1 = 2 * l1, d2 = 2 * l2, d3 = 2 * l3
        let e3 = 19 * l3, e4 = 19 * l4  // ·2^255 ≡ ·19
        var c0 = Wide(l0, l0), c1 = Wide(d0, l1), c2 = Wide(d0, l2), c3 = Wide(d0, l3), c4 = Wide(d0, l4)
        c0.add(d1, e4); c1.add(d2, e4); c2.add(l1, l1); c3.add(d1, l2); c4.add(d1, l3)
        c0.add(d2, e3); c1.add(l3, e3); c2.add(d3, e4); c3.add(l4, e4); c4.add(l2, l2)
        return Curve25519Field.carried(c0, c1, c2, c3, c4)
    }

    /// The element whose limbs are the 128-bit column sums c0…c4, carried back to 51 bits.
    @inline(__always)
    private static func carried(_ c0: Wide, _ c1: Wide, _ c2: Wide, _ c3: Wide, _ c4: Wide) -> Curve25519Field {
        var c1 = c1, c2 = c2, c3 = c3, c4 = c4
        c1.add(c0.shiftedDown51)
        c2.add(c1.shiftedDown51)
        c3.add(c2.shiftedDown51)
        c4.add(c3.shiftedDown51)
        // The carry out of c4 (up to ~2^66) is worth 19 times as much at l0.
        var folded = Wide(c4.shiftedDown51, times: 19)
        folded.add(Wide(low: c0.low & mask))
        return Curve25519Field(l0: folded.low & mask, l1: (c1.low & mask) + folded.shiftedDown51.low,
                               l2: c2.low & mask, l3: c3.low & mask, l4: c4.low & mask)
    }

    /// self^(2^count): `count` squarings.
    @inline(__always)
    private func squaring(_ count: Int) -> Curve25519Field {
        var result = self
        for _ in 0..<count { result = result.squared() }
        return result
    }

    /// self^(p − 2) = self⁻¹ (Fermat); zero stays zero. p − 2 = 2^255 − 21 = (2^250 − 1)·2^5
    /// + 11, reached with an addition chain: 254 squarings, 11 multiplications.
    func inverse() -> Curve25519Field {
        let z2 = squared()
        let z9 = z2.squaring(2) * self
        let z11 = z9 * z2
        let x5 = z11.squared() * z9         // self^(2^5 − 1)
        let x10 = x5.squaring(5) * x5
        let x20 = x10.squaring(10) * x10
        let x40 = x20.squaring(20) * x20
        let x50 = x40.squaring(10) * x10
        let x100 = x50.squaring(50) * x50
        let x200 = x100.squaring(100) * x100
        let x250 = x200.squaring(50) * x50
        return x250.squaring(5) * z11
    }

    /// Swaps a and b when `swap` is 1 (0 leaves them), without branching on it.
    @inline(__always)
    static func conditionalSwap(_ a: inout Curve25519Field, _ b: inout Curve25519Field, _ swap: UInt64) {
        let mask = 0 &- swap
        var t = mask & (a.l0 ^ b.l0); a.l0 ^= t; b.l0 ^= t
        t = mask & (a.l1 ^ b.l1); a.l1 ^= t; b.l1 ^= t
        t = mask & (a.l2 ^ b.l2); a.l2 ^= t; b.l2 ^= t
        t = mask & (a.l3 ^ b.l3); a.l3 ^= t; b.l3 ^= t
        t = mask & (a.l4 ^ b.l4); a.l4 ^= t; b.l4 ^= t
    }
}

/// A 128-bit accumulator for sums of 64×64-bit products.
private struct Wide {
    var high: UInt64
    var low: UInt64

    @inline(__always)
    init(low: UInt64) {
        high = 0
        self.low = low
    }

    /// x·y.
    @inline(__always)
    init(_ x: UInt64, _ y: UInt64) {
        (high, low) = x.multipliedFullWidth(by: y)
    }

    /// value·k for k small enough that the result fits 128 bits.
    @inline(__always)
    init(_ value: Wide, times k: UInt64) {
        (high, low) = value.low.multipliedFullWidth(by: k)
        high &+= value.high &* k
    }

    /// self += x·y.
    @inline(__always)
    mutating func add(_ x: UInt64, _ y: UInt64) {
        add(Wide(x, y))
    }

    /// self += other.
    @inline(__always)
    mutating func add(_ other: Wide) {
        let (sum, overflow) = low.addingReportingOverflow(other.low)
        low = sum
        high &+= other.high &+ (overflow ? 1 : 0)
    }

    /// self >> 51.
    @inline(__always)
    var shiftedDown51: Wide {
        var result = Wide(low: (low >> 51) | (high << 13))
        result.high = high >> 51
        return result
    }
}
