// Modular exponentiation for RSA public-key operations (verification only): Montgomery
// multiplication (the "coarsely integrated operand scanning" form of Koç, Acar and Kaliski,
// 1996) on little-endian 64-bit limbs. The exponent is public, so nothing here needs to be
// constant-time; the work is bounded by the modulus cap (4096 bits) and the exponent cap
// (64 bits): at most 64 squarings and 64 multiplications of 64 limbs.

/// An odd RSA modulus prepared for Montgomery arithmetic, R = 2^(64·limbCount).
struct RSAModulus: Sendable, Hashable {
    /// n, little-endian limbs, the top limb non-zero.
    let limbs: [UInt64]
    /// −n⁻¹ mod 2^64.
    let inverse: UInt64
    /// R² mod n, to bring a number into Montgomery form.
    let rSquared: [UInt64]

    /// nil unless `limbs` is odd, above 1, and its top limb is non-zero.
    init?(limbs: [UInt64]) {
        guard let low = limbs.first, low & 1 == 1, let top = limbs.last, top != 0, limbs.count > 1 || low > 1 else { return nil }
        self.limbs = limbs
        // Newton's iteration doubles the correct low bits each round: 1 → 2 → … → 64 (x = n
        // is already right to 3 bits, so five rounds suffice; six cost nothing).
        var x: UInt64 = low
        for _ in 0..<6 { x = x &* (2 &- low &* x) }
        inverse = 0 &- x
        // 2^(2·64·k) mod n by doubling 1, reducing after each step.
        var value = [UInt64](repeating: 0, count: limbs.count)
        value[0] = 1
        for _ in 0..<(2 * 64 * limbs.count) {
            Self.doubleModulo(&value, limbs)
        }
        rSquared = value
    }

    /// value = 2·value mod n, for value < n.
    private static func doubleModulo(_ value: inout [UInt64], _ modulus: [UInt64]) {
        var carry: UInt64 = 0
        for index in value.indices {
            let limb = value[index]
            value[index] = limb << 1 | carry
            carry = limb >> 63
        }
        if carry != 0 || !isLess(value, modulus) {
            subtract(&value, modulus)
        }
    }

    /// Whether lhs < rhs, both of the same limb count.
    static func isLess(_ lhs: [UInt64], _ rhs: [UInt64]) -> Bool {
        for index in stride(from: lhs.count - 1, through: 0, by: -1) where lhs[index] != rhs[index] {
            return lhs[index] < rhs[index]
        }
        return false
    }

    /// lhs −= rhs modulo 2^(64·count) (the borrow out is dropped: callers know the result fits).
    static func subtract(_ lhs: inout [UInt64], _ rhs: [UInt64]) {
        var borrow = false
        for index in lhs.indices {
            let (difference, overflow1) = lhs[index].subtractingReportingOverflow(rhs[index])
            let (result, overflow2) = difference.subtractingReportingOverflow(borrow ? 1 : 0)
            lhs[index] = result
            borrow = overflow1 || overflow2
        }
    }

    /// a·b·R⁻¹ mod n for a, b < n.
    func montgomeryProduct(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
        let count = limbs.count
        var t = [UInt64](repeating: 0, count: count + 2)
        for i in 0..<count {
            var carry: UInt64 = 0
            for j in 0..<count {
                (carry, t[j]) = Self.multiplyAdd(a[j], b[i], t[j], carry)
            }
            var overflow: Bool
            (t[count], overflow) = t[count].addingReportingOverflow(carry)
            t[count + 1] = overflow ? 1 : 0
            let m = t[0] &* inverse
            (carry, _) = Self.multiplyAdd(m, limbs[0], t[0], 0)
            for j in 1..<count {
                (carry, t[j - 1]) = Self.multiplyAdd(m, limbs[j], t[j], carry)
            }
            (t[count - 1], overflow) = t[count].addingReportingOverflow(carry)
            t[count] = t[count + 1] &+ (overflow ? 1 : 0)
        }
        var result = Array(t[0..<count])
        if t[count] != 0 || !Self.isLess(result, limbs) {
            Self.subtract(&result, limbs)
        }
        return result
    }

    /// base^exponent mod n for base < n and exponent ≥ 1.
    func power(_ base: [UInt64], exponent: UInt64) -> [UInt64] {
        let baseMontgomery = montgomeryProduct(base, rSquared)
        var accumulator = baseMontgomery
        let topBit = 63 - exponent.leadingZeroBitCount
        for bit in stride(from: topBit - 1, through: 0, by: -1) {
            accumulator = montgomeryProduct(accumulator, accumulator)
            if exponent >> UInt64(bit) & 1 == 1 {
                accumulator = montgomeryProduct(accumulator, baseMontgomery)
            }
        }
        var one = [UInt64](repeating: 0, count: limbs.count)
        one[0] = 1
        return montgomeryProduct(accumulator, one)
    }

    /// (high, low) of x·y + a + b, which always fits in 128 bits.
    @inline(__always)
    private static func multiplyAdd(_ x: UInt64, _ y: UInt64, _ a: UInt64, _ b: UInt64) -> (UInt64, UInt64) {
        let (high, low) = x.multipliedFullWidth(by: y)
        let (sum1, carry1) = low.addingReportingOverflow(a)
        let (sum2, carry2) = sum1.addingReportingOverflow(b)
        return (high &+ (carry1 ? 1 : 0) &+ (carry2 ? 1 : 0), sum2)
    }

    /// Little-endian limbs from big-endian bytes, padded to `count` limbs; nil if they do not fit.
    static func limbs(bigEndian bytes: ArraySlice<UInt8>, count: Int) -> [UInt64]? {
        let significant = bytes.drop { $0 == 0 }
        guard significant.count <= count * 8 else { return nil }
        var result = [UInt64](repeating: 0, count: count)
        for (offset, byte) in significant.reversed().enumerated() {
            result[offset / 8] |= UInt64(byte) << UInt64(offset % 8 * 8)
        }
        return result
    }

    /// The big-endian bytes of little-endian limbs, left-padded or cut to `count` bytes
    /// (the caller checks the value fits).
    static func bigEndianBytes(_ limbs: [UInt64], count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        for index in 0..<count {
            let offset = count - 1 - index  // byte offset from the least significant end
            guard offset / 8 < limbs.count else { continue }
            bytes[index] = UInt8(truncatingIfNeeded: limbs[offset / 8] >> UInt64(offset % 8 * 8))
        }
        return bytes
    }
}
