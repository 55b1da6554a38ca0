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
