// Scalar multiplication on P-256. k·G (key derivation, signing) uses a fixed-base comb: a
// one-time table of j·16^i·G turns it into 64 mixed additions and no doublings.
// Verification's u1·G + u2·Q interleaves both scalars' non-adjacent forms (Shamir's trick)
// so they share 256 doublings; ECDH's k·P is the same with u1 = 0.
//
// Not constant-time: table lookups and additions depend on the scalar's digits. A loopback
// test fake signs only with test keys, so speed and clarity win here; never use this for
// keys that matter.

/// P-256 curve operations used by ECDSA and ECDH.
package enum P256 {
    /// combTable[15·i + j − 1] = j·16^i·G in affine form, for i in 0..<64 and j in 1...15:
    /// 960 points (60 KiB), built on first use with one field inversion (Montgomery's trick).
    private static let combTable: [P256AffinePoint] = {
        var points: [P256JacobianPoint] = []
        points.reserveCapacity(64 * 15)
        var base = P256AffinePoint.generator.jacobian  // 16^i·G
        for _ in 0..<64 {
            var multiple = base
            points.append(multiple)
            for _ in 2...15 {
                multiple = multiple.adding(base)
                points.append(multiple)
            }
            base = multiple.adding(base)
        }
        return affine(points)
    }()

    /// k·G = Σ j·16^i·G over k's hex digits j: 64 mixed additions at most.
    package static func multiplyGenerator(_ k: U256) -> P256JacobianPoint {
        var result = P256JacobianPoint.infinity
        combTable.withUnsafeBufferPointer { table in
            for index in 0..<64 {
                let digit = k.nibble(index)
                if digit != 0 {
                    result = result.adding(table[index &* 15 &+ digit &- 1])
                }
            }
        }
        return result
    }

    /// Affine forms of points that are not infinity, sharing one inversion: invert the
    /// product of all Z, then peel each Z⁻¹ off with two multiplications.
    private static func affine(_ points: [P256JacobianPoint]) -> [P256AffinePoint] {
        guard !points.isEmpty else { return [] }
        var prefixProducts: [P256FieldElement] = []
        prefixProducts.reserveCapacity(points.count)
        var running = P256FieldElement.one
        for point in points {
            running = running * point.z
            prefixProducts.append(running)
        }
        var inverse = running.inverse()
        var result = [P256AffinePoint](repeating: P256AffinePoint.generator, count: points.count)
        for index in stride(from: points.count - 1, through: 0, by: -1) {
            let zInverse = index > 0 ? inverse * prefixProducts[index - 1] : inverse
            inverse = inverse * points[index].z
            let zInverseSquared = zInverse.squared()
            result[index] = P256AffinePoint(unchecked: points[index].x * zInverseSquared,
                                            points[index].y * zInverseSquared * zInverse)
        }
        return result
    }

    /// u1·G + u2·Q with shared doublings: both scalars in width-w non-adjacent form (G's
    /// odd multiples up to 63·G from a one-time affine table, Q's up to 15·Q per call), so
    /// about 256 doublings, 37 mixed and 43 full additions instead of 64 and 64.
    package static func multiplyGeneratorAndAdd(_ u1: U256, _ u2: U256, _ q: P256AffinePoint) -> P256JacobianPoint {
        let gDigits = nonAdjacentForm(u1, width: 7)
        let qDigits = nonAdjacentForm(u2, width: 5)
        let qTable = oddMultiples(q.jacobian)
        var result = P256JacobianPoint.infinity
        var index = max(gDigits.count, qDigits.count) - 1
        while index >= 0 {
            result = result.doubled()
            let gDigit = index < gDigits.count ? Int(gDigits[index]) : 0
            if gDigit > 0 {
                result = result.adding(generatorOddMultiples[gDigit >> 1])
            } else if gDigit < 0 {
                result = result.adding(generatorOddMultiples[-gDigit >> 1].negated)
            }
            let qDigit = index < qDigits.count ? Int(qDigits[index]) : 0
            if qDigit > 0 {
                result = result.adding(qTable[qDigit >> 1])
            } else if qDigit < 0 {
                result = result.adding(qTable[-qDigit >> 1].negated)
            }
            index -= 1
        }
        return result
    }

    /// 1·G, 3·G, …, 63·G in affine form, built on first use (one shared inversion).
    private static let generatorOddMultiples: [P256AffinePoint] = {
        let g = P256AffinePoint.generator.jacobian
        let twice = g.doubled()
        var points = [g]
        for _ in 1..<32 { points.append(points[points.count - 1].adding(twice)) }
        return affine(points)
    }()

    /// 1·P, 3·P, …, 15·P in Jacobian coordinates.
    private static func oddMultiples(_ point: P256JacobianPoint) -> [P256JacobianPoint] {
        let twice = point.doubled()
        var table = [point]
        table.reserveCapacity(8)
        for _ in 1..<8 { table.append(table[table.count - 1].adding(twice)) }
        return table
    }

    /// k's width-`width` non-adjacent form, least significant digit first: digits 0 or odd in
    /// −2^(width−1) < d < 2^(width−1), any nonzero digit followed by width − 1 zeros, and
    /// Σ dᵢ·2^i = k. At most 257 digits (k < 2^256).
    static func nonAdjacentForm(_ k: U256, width: Int) -> [Int8] {
        var digits: [Int8] = []
        digits.reserveCapacity(257)
        var value = k
        var carry: UInt64 = 0  // the 2^256 bit, which adding a digit's complement can set
        let window = UInt64(1) << UInt64(width), half = Int64(1) << Int64(width - 1)
        while !value.isZero || carry != 0 {
            var digit: Int64 = 0
            if value.l0 & 1 == 1 {
                digit = Int64(value.l0 & (window - 1))
                if digit >= half { digit -= Int64(window) }
                if digit > 0 {
                    value = value.subtractingReportingBorrow(U256(l0: UInt64(digit), l1: 0, l2: 0, l3: 0)).difference
                } else {
                    let (sum, overflow) = value.addingReportingCarry(U256(l0: UInt64(-digit), l1: 0, l2: 0, l3: 0))
                    value = sum
                    if overflow { carry = 1 }
                }
            }
            digits.append(Int8(digit))
            value = U256(l0: value.l0 >> 1 | value.l1 << 63, l1: value.l1 >> 1 | value.l2 << 63,
                         l2: value.l2 >> 1 | value.l3 << 63, l3: value.l3 >> 1 | carry << 63)
            carry = 0
        }
        return digits
    }

    /// k·P for an arbitrary point (ECDH with a peer's key): 0·G + k·P.
    package static func multiply(_ k: U256, _ point: P256AffinePoint) -> P256JacobianPoint {
        multiplyGeneratorAndAdd(.zero, k, point)
    }
}
