// The fast paths against the plain ones they replace, on seeded random and edge inputs: the
// P-256-shaped Montgomery reduction against the generic one, the field's inversion chain
// against the windowed power, the windowed power against repeated multiplication, and
// X25519's fixed-base public key against the ladder.
@testable import PushCrypto
import Testing
import PushCore
import PushTestSupport

extension SplitMix64 {
    mutating func u256() -> U256 { U256(l0: next(), l1: next(), l2: next(), l3: next()) }
}

@Suite struct CryptoFastPathTests {
    /// Values below p with every carry edge: 0, 1, p − 1, p − 2, 2^255, limbs all ones below p.
    static let fieldEdges: [U256] = {
        let p = P256Prime.modulus
        return [.zero, .one, p.subtractingReportingBorrow(.one).difference,
                p.subtractingReportingBorrow(U256(l0: 2, l1: 0, l2: 0, l3: 0)).difference,
                U256(l0: 0, l1: 0, l2: 0, l3: 1 << 63), U256(l0: ~0, l1: ~0, l2: ~0, l3: 0xffff_ffff_0000_0000),
                U256(l0: ~0, l1: 0xffff_ffff, l2: 0, l3: 0)]
    }()

    @Test func p256ReductionMatchesTheGenericOne() {
        var words = SplitMix64(seed: 41)
        var values = Self.fieldEdges
        for _ in 0..<200 { values.append(P256FieldElement(words.u256()).montgomery) }
        for a in values {
            for b in values.prefix(20) {
                let generic = U256.montgomeryProduct(a, b, modulus: P256Prime.modulus, negatedInverse: P256Prime.negatedInverse)
                #expect(U256.p256MontgomeryProduct(a, b) == generic)
            }
            #expect(U256.p256MontgomerySquare(a) == U256.p256MontgomeryProduct(a, a), "a² for a = \(a)")
        }
    }

    @Test func fieldInversionChainMatchesFermat() {
        var words = SplitMix64(seed: 7)
        let exponent = P256Prime.modulus.subtractingReportingBorrow(U256(l0: 2, l1: 0, l2: 0, l3: 0)).difference
        for integer in Self.fieldEdges + (0..<20).map({ _ in words.u256() }) {
            let value = P256FieldElement(integer)
            #expect(value.inverse() == value.power(exponent))
            if !value.isZero { #expect((value * value.inverse()).integer == .one) }
        }
    }

    @Test func windowedPowerMatchesRepeatedMultiplication() {
        var words = SplitMix64(seed: 3)
        let base = P256Scalar(words.u256())
        var expected = P256Scalar.one
        for exponent in 0...300 {
            #expect(base.power(U256(l0: UInt64(exponent), l1: 0, l2: 0, l3: 0)) == expected, "exponent \(exponent)")
            expected = expected * base
        }
        // A high digit alone: base^(2^252) is base squared 252 times.
        var squared = base
        for _ in 0..<252 { squared = squared.squared() }
        #expect(base.power(U256(l0: 0, l1: 0, l2: 0, l3: 1 << 60)) == squared)
        for _ in 0..<10 {
            let scalar = P256Scalar(words.u256())
            #expect((scalar * scalar.inverse()).integer == .one)
        }
    }

    /// The base point is on edwards25519 (−x² + y² = 1 + d·x²·y²), so the constants are right.
    @Test func edwardsBasePointIsOnTheCurve() {
        let (x, y) = EdwardsPoint.base
        let xx = x.squared(), yy = y.squared()
        let left = (yy - xx).littleEndianBytes
        let right = (Curve25519Field.one + EdwardsPoint.d * xx * yy).littleEndianBytes
        #expect(left == right)
    }

    /// The fixed-base public key equals the ladder's X25519(k, 9) for random scalars and
    /// the edges of clamping (all zero, all ones, short keys).
    @Test func fixedBasePublicKeyMatchesTheLadder() {
        var words = SplitMix64(seed: 25519)
        var scalars: [[UInt8]] = [[UInt8](repeating: 0, count: 32), [UInt8](repeating: 0xff, count: 32), [1, 2, 3], []]
        for _ in 0..<40 {
            scalars.append((0..<32).map { _ in UInt8(truncatingIfNeeded: words.next()) })
        }
        for scalar in scalars {
            #expect(X25519.fixedBasePublicKey(scalar) == X25519.scalarMultiply(scalar, X25519.basePoint), "k = \(CryptoHex.string(scalar))")
        }
    }
}

extension CryptoFastPathTests {
    /// The non-adjacent form sums back to k, its nonzero digits are odd and in range, and
    /// each is followed by width − 1 zeros; for random scalars and the edges (0, 1, n − 1,
    /// 2^256 − 1, which needs the carry past bit 255).
    @Test(arguments: [5, 7])
    func nonAdjacentFormIsAValidRepresentation(width: Int) {
        var random = SplitMix64(seed: UInt64(width))
        let nMinusOne = P256Order.modulus.subtractingReportingBorrow(.one).difference
        for k in [U256.zero, .one, nMinusOne, U256(l0: ~0, l1: ~0, l2: ~0, l3: ~0)] + (0..<50).map({ _ in random.u256() }) {
            let digits = P256.nonAdjacentForm(k, width: width)
            #expect(digits.count <= 257)
            var sum = P256Scalar.zero
            var power = P256Scalar.one
            let two = P256Scalar(U256(l0: 2, l1: 0, l2: 0, l3: 0))
            var lastNonzero = -width
            for (index, digit) in digits.enumerated() {
                if digit != 0 {
                    #expect(digit & 1 == 1 && abs(Int(digit)) < 1 << (width - 1), "digit \(digit)")
                    #expect(index - lastNonzero >= width, "digits \(lastNonzero) and \(index) too close")
                    lastNonzero = index
                    let magnitude = P256Scalar(U256(l0: UInt64(abs(Int(digit))), l1: 0, l2: 0, l3: 0)) * power
                    sum = digit > 0 ? sum + magnitude : sum - magnitude
                }
                power = power * two
            }
            #expect(sum == P256Scalar(k), "k = \(CryptoHex.string(k.bigEndianBytes))")
        }
    }

    /// u1·G + u2·Q against the plain sum of two comb/ladder-free products: u1·G by the comb
    /// table, u2·Q by double-and-add on affine points.
    @Test func shamirsTrickMatchesSeparateProducts() throws {
        var random = SplitMix64(seed: 256)
        let q = try #require(P256.multiplyGenerator(U256(l0: 12345, l1: 0, l2: 0, l3: 0)).affine)
        for _ in 0..<4 {
            let u1 = P256Scalar(random.u256()).integer, u2 = P256Scalar(random.u256()).integer
            var expected = P256.multiplyGenerator(u1)
            var addend = q.jacobian
            for bit in 0..<256 {
                if u2.bit(bit) { expected = expected.adding(addend) }
                addend = addend.doubled()
            }
            #expect(P256.multiplyGeneratorAndAdd(u1, u2, q).affine == expected.affine)
        }
        #expect(P256.multiply(.zero, q).isInfinity)
    }
}
