// Scalar multiplication on P-256 with 4-bit windows. k·G (key derivation, signing) uses a
// fixed-base comb: a one-time table of j·16^i·G turns it into 64 mixed additions and no
// doublings. Verification's u1·G + u2·Q interleaves both scalars' windows (Shamir's
// trick) so they share 256 doublings.
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

    /// u1·G + u2·Q with shared doublings (G's window is the comb table's first row, 1…15·G).
    package static func multiplyGeneratorAndAdd(_ u1: U256, _ u2: U256, _ q: P256AffinePoint) -> P256JacobianPoint {
        let gTable = combTable
        let qTable = windowTable(q.jacobian)
        var result = P256JacobianPoint.infinity
        for index in stride(from: 63, through: 0, by: -1) {
            result = result.doubled().doubled().doubled().doubled()
            let gDigit = u1.nibble(index)
            if gDigit != 0 {
                result = result.adding(gTable[gDigit &- 1])
            }
            let qDigit = u2.nibble(index)
            if qDigit != 0 {
                result = result.adding(qTable[qDigit])
            }
        }
        return result
    }

    /// k·P for an arbitrary point (ECDH with a peer's key): 0·G + k·P.
    package static func multiply(_ k: U256, _ point: P256AffinePoint) -> P256JacobianPoint {
        multiplyGeneratorAndAdd(.zero, k, point)
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
