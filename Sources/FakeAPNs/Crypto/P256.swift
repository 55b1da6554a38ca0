// P256Scalar multiplication on P-256 with fixed 4-bit windows: 64 rounds of four doublings and
// one table addition. Verification interleaves u1·G and u2·Q (Shamir's trick) so both
// share the doublings.
//
// Not constant-time: table lookups and additions depend on the scalar's digits. A loopback
// test fake signs only with test keys, so speed and clarity win here; never use this for
// keys that matter.

/// P-256 curve operations used by ECDSA.
enum P256 {
    /// 0·G … 15·G in affine form (index 0 is unused), computed once.
    private static let generatorTable: [P256AffinePoint] = {
        let multiples = windowTable(P256AffinePoint.generator.jacobian)
        // Index 0 is infinity and never read; keep G there so the array stays affine.
        return multiples.map { $0.affine ?? P256AffinePoint.generator }
    }()

    /// k·G.
    static func multiplyGenerator(_ k: U256) -> P256JacobianPoint {
        let table = generatorTable
        var result = P256JacobianPoint.infinity
        for index in stride(from: 63, through: 0, by: -1) {
            result = result.doubled().doubled().doubled().doubled()
            let digit = k.nibble(index)
            if digit != 0 {
                result = result.adding(table[digit])
            }
        }
        return result
    }

    /// u1·G + u2·Q with shared doublings.
    static func multiplyGeneratorAndAdd(_ u1: U256, _ u2: U256, _ q: P256AffinePoint) -> P256JacobianPoint {
        let gTable = generatorTable
        let qTable = windowTable(q.jacobian)
        var result = P256JacobianPoint.infinity
        for index in stride(from: 63, through: 0, by: -1) {
            result = result.doubled().doubled().doubled().doubled()
            let gDigit = u1.nibble(index)
            if gDigit != 0 {
                result = result.adding(gTable[gDigit])
            }
            let qDigit = u2.nibble(index)
            if qDigit != 0 {
                result = result.adding(qTable[qDigit])
            }
        }
        return result
    }

    /// 0·P … 15·P in Jacobian coordinates.
    private static func windowTable(_ point: P256JacobianPoint) -> [P256JacobianPoint] {
        var table = [P256JacobianPoint.infinity, point]
        table.reserveCapacity(16)
        for multiple in 2..<16 {
            let next = multiple.isMultiple(of: 2)
                ? table[multiple / 2].doubled()
                : table[multiple - 1].adding(point)
            table.append(next)
        }
        return table
    }
}
