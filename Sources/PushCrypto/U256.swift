// A 256-bit unsigned integer as four 64-bit limbs, least significant first. A plain value
// with no heap storage, so the field arithmetic built on it does not allocate.

/// 256-bit unsigned integer (little-endian limbs).
package struct U256: Hashable, Sendable {
    package var l0: UInt64
    package var l1: UInt64
    package var l2: UInt64
    package var l3: UInt64

    package static let zero = U256(l0: 0, l1: 0, l2: 0, l3: 0)
    package static let one = U256(l0: 1, l1: 0, l2: 0, l3: 0)

    @inline(__always)
    package init(l0: UInt64, l1: UInt64, l2: UInt64, l3: UInt64) {
        self.l0 = l0
        self.l1 = l1
        self.l2 = l2
        self.l3 = l3
    }

    /// Reads a big-endian integer of at most 32 bytes; `nil` if longer.
    package init?(bigEndian bytes: some Collection<UInt8>) {
        guard bytes.count <= 32 else { return nil }
        var limbs: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        var shift = (bytes.count - 1) * 8
        for byte in bytes {
            let value = UInt64(byte) << UInt64(shift % 64)
            switch shift / 64 {
            case 0: limbs.0 |= value
            case 1: limbs.1 |= value
            case 2: limbs.2 |= value
            default: limbs.3 |= value
            }
            shift -= 8
        }
        self.init(l0: limbs.0, l1: limbs.1, l2: limbs.2, l3: limbs.3)
    }

    /// The 32-byte big-endian encoding.
    package var bigEndianBytes: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for limb in [l3, l2, l1, l0] {
            for shift in stride(from: 56, through: 0, by: -8) {
                bytes.append(UInt8(truncatingIfNeeded: limb >> UInt64(shift)))
            }
        }
        return bytes
    }

    package var isZero: Bool { (l0 | l1 | l2 | l3) == 0 }

    /// Limb `index` (0 = least significant, 3 = most; higher reads the top limb).
    @inline(__always)
    package func limb(_ index: Int) -> UInt64 {
        switch index {
        case 0: l0
        case 1: l1
        case 2: l2
        default: l3
        }
    }

    /// The 4-bit digit `index` (0 = least significant nibble, 63 = most).
    @inline(__always)
    package func nibble(_ index: Int) -> Int {
        Int(truncatingIfNeeded: (limb(index >> 4) &>> UInt64((index & 15) * 4)) & 0xf)
    }

    /// Bit `index` (0 = least significant).
    @inline(__always)
    package func bit(_ index: Int) -> Bool {
        (limb(index >> 6) &>> UInt64(index & 63)) & 1 == 1
    }

    @inline(__always)
    package static func < (lhs: U256, rhs: U256) -> Bool {
        if lhs.l3 != rhs.l3 { return lhs.l3 < rhs.l3 }
        if lhs.l2 != rhs.l2 { return lhs.l2 < rhs.l2 }
        if lhs.l1 != rhs.l1 { return lhs.l1 < rhs.l1 }
        return lhs.l0 < rhs.l0
    }

    @inline(__always)
    package static func >= (lhs: U256, rhs: U256) -> Bool { !(lhs < rhs) }

    /// `self + other` modulo 2^256 and whether it carried out.
    @inline(__always)
    package func addingReportingCarry(_ other: U256) -> (sum: U256, carry: Bool) {
        let (sum, carry) = limbwise(other, U256.addWithCarry)
        return (sum, carry)
    }

    /// `self - other` modulo 2^256 and whether it borrowed.
    @inline(__always)
    package func subtractingReportingBorrow(_ other: U256) -> (difference: U256, borrow: Bool) {
        let (difference, borrow) = limbwise(other, U256.subtractWithBorrow)
        return (difference, borrow)
    }

    /// Applies a two-word operation with a carry bit limb by limb, least significant first
    /// (the carry in of limb 0 is false); the result and the last carry out.
    @inline(__always)
    private func limbwise(_ other: U256, _ operation: (UInt64, UInt64, Bool) -> (UInt64, Bool)) -> (U256, Bool) {
        let (r0, c0) = operation(l0, other.l0, false)
        let (r1, c1) = operation(l1, other.l1, c0)
        let (r2, c2) = operation(l2, other.l2, c1)
        let (r3, c3) = operation(l3, other.l3, c2)
        return (U256(l0: r0, l1: r1, l2: r2, l3: r3), c3)
    }
}

extension U256 {
    @inline(__always)
    package static func addWithCarry(_ a: UInt64, _ b: UInt64, _ carry: Bool) -> (UInt64, Bool) {
        let (s, c1) = a.addingReportingOverflow(b)
        let (t, c2) = s.addingReportingOverflow(carry ? 1 : 0)
        // Never both (a + b ≤ 2^65 − 2): `!=` rather than `||`, which compiles to branches.
        return (t, c1 != c2)
    }

    @inline(__always)
    package static func subtractWithBorrow(_ a: UInt64, _ b: UInt64, _ borrow: Bool) -> (UInt64, Bool) {
        let (d, b1) = a.subtractingReportingOverflow(b)
        let (e, b2) = d.subtractingReportingOverflow(borrow ? 1 : 0)
        return (e, b1 != b2)  // never both, as above
    }

    /// `acc + x * y + carry` as (low word, high word); cannot overflow 128 bits.
    @inline(__always)
    package static func multiplyAccumulate(_ acc: UInt64, _ x: UInt64, _ y: UInt64, _ carry: UInt64) -> (low: UInt64, high: UInt64) {
        let (high, low) = x.multipliedFullWidth(by: y)
        let (s1, o1) = low.addingReportingOverflow(acc)
        let (s2, o2) = s1.addingReportingOverflow(carry)
        return (s2, high &+ (o1 ? 1 : 0) &+ (o2 ? 1 : 0))
    }
}
